package io.gpumeter.alert.domain;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.gpumeter.common.triage.Confidence;
import io.gpumeter.common.triage.Symptom;
import io.gpumeter.common.triage.Triage;
import io.gpumeter.common.triage.Triage.Alternative;
import io.gpumeter.common.triage.Triage.Evidence;
import io.gpumeter.common.triage.Triage.Named;
import io.gpumeter.common.triage.Triage.Scope;
import io.gpumeter.common.triage.Triage.Subject;
import io.gpumeter.common.triage.Triage.SubjectKind;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TenantCutTest {

    private static final Instant AT = Instant.parse("2026-11-02T12:00:00Z");
    private static final Subject ACME_POD = new Subject(SubjectKind.POD, "east", "acme-ml", "worker-0", "uid-1", "acme");
    private static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule());

    static Triage answer(Subject subject, List<String> alike, List<Evidence> evidence, List<Alternative> alternatives,
                         List<String> checked, List<Named> named) {
        return new Triage(subject, AT, Symptom.OOM, "data-plane", "neighbour-memory-pressure", Confidence.HIGH,
                new Scope("NODE", alike, 1), List.of(), new Triage.Recurrence(2, AT.minusSeconds(86_400)), evidence,
                alternatives, checked, null, named);
    }

    static final List<Named> MARKED = List.of(
            new Named(SubjectKind.POD, "acme-ml", "worker-0", "acme"),
            new Named(SubjectKind.POD, "acme-ml", "worker-1", "acme"),
            new Named(SubjectKind.POD, "initech-ml", "big-0", "initech"),
            new Named(SubjectKind.POD, "initech-ml", "worker-0", "initech"),
            new Named(SubjectKind.WORKLOAD, "hooli-ml", "job-hooli-7", "hooli"),
            new Named(SubjectKind.POD, "gpu-operator", "nvidia-device-plugin-x1", null));

    @Test
    void aTenantsAnswerNamesNoOtherTenantsObjectsAndCountsTheirPodsAlike() throws Exception {
        Triage whole = answer(ACME_POD,
                List.of("acme-ml/worker-1", "initech-ml/big-0", "hooli-ml/job-hooli-7-x", "gpu-a100-01"),
                List.of(new Evidence(AT, "usage", "GPU-1 full at 12:00: initech-ml/big-0 used 60 GiB (big-0's grant "
                                + "40 GiB); worker-0 stayed at 7 GiB of its 10.", "kubectl top pod -n initech-ml big-0"),
                        new Evidence(AT, "usage", "Initech-ML/Big-0 rose from 20 GiB.", null),
                        new Evidence(AT, "pod-status", "acme-ml/worker-0 OOMKilled beside initech-ml/worker-0",
                                "kubectl describe pod -n acme-ml worker-0"),
                        new Evidence(AT, "gpu-stack", "gpu-operator/nvidia-device-plugin-x1 ready", null)),
                List.of(new Alternative("oom", "worker-0 stayed under its grant while job-hooli-7 of hooli grew"),
                        new Alternative("isolation-not-enforced", "no share in initech-ml above its grant")),
                List.of("the card's memory (initech's and hooli's shares included)"), MARKED);

        Triage cut = TenantCut.of(whole, "acme").orElseThrow();

        assertEquals(List.of("acme-ml/worker-1", "gpu-a100-01"), cut.scope().alike());
        assertEquals(3, cut.scope().othersAlike(), "one counted by the ledger, two here");
        assertEquals("GPU-1 full at 12:00: another tenant's pod used 60 GiB (another tenant's pod's grant 40 GiB); "
                + "worker-0 stayed at 7 GiB of its 10.", cut.evidence().get(0).fact(),
                "the subject's own bare name stays, though another tenant has a pod of that name");
        assertNull(cut.evidence().get(0).command(), "a command naming another tenant's pod is dropped");
        assertEquals("another tenant's pod rose from 20 GiB.", cut.evidence().get(1).fact(), "any case");
        assertEquals("acme-ml/worker-0 OOMKilled beside another tenant's pod", cut.evidence().get(2).fact());
        assertEquals("kubectl describe pod -n acme-ml worker-0", cut.evidence().get(2).command());
        assertEquals("gpu-operator/nvidia-device-plugin-x1 ready", cut.evidence().get(3).fact(), "no tenant's: kept");
        assertEquals("worker-0 stayed under its grant while another tenant's workload of another tenant grew",
                cut.alternatives().get(0).ruledOutBy());
        assertEquals("no share in another tenant's namespace above its grant", cut.alternatives().get(1).ruledOutBy());
        assertEquals(List.of("the card's memory (another tenant's and another tenant's shares included)"), cut.checked());
        assertEquals(List.of("acme", "acme", "-"), cut.named().stream()
                .map(n -> n.tenant() == null ? "-" : n.tenant()).toList());
        String json = JSON.writeValueAsString(cut).toLowerCase(Locale.ROOT);
        for (String foreign : List.of("initech", "hooli", "big-0", "job-hooli")) {
            assertFalse(json.contains(foreign), foreign + " in " + json);
        }
        assertEquals(whole.subject(), cut.subject());
        assertEquals(whole.recurrence(), cut.recurrence());
        assertEquals(whole.cause(), cut.cause());
    }

    @Test
    void anUnmarkedAnswerHidesEveryQualifiedNameOutsideTheSubjectsNamespaceAndNothingElse() {
        Triage whole = answer(ACME_POD, List.of("acme-ml/worker-1", "initech-ml/big-0", "gpu-operator/plugin-x"),
                List.of(new Evidence(AT, "event", "initech-ml/big-0 holds 60 GiB at 12 req/s; 0/4 nodes are "
                        + "available: 4 Insufficient nvidia.com/gpu; acme-ml/worker-1 waits.", null)),
                List.of(), List.of(), null);

        Triage cut = TenantCut.of(whole, "acme").orElseThrow();

        assertEquals(List.of("acme-ml/worker-1"), cut.scope().alike());
        assertEquals(3, cut.scope().othersAlike());
        assertEquals("another tenant's pod holds 60 GiB at 12 req/s; 0/4 nodes are available: 4 Insufficient "
                + "nvidia.com/gpu; acme-ml/worker-1 waits.", cut.evidence().get(0).fact());
        assertNull(cut.named());
    }

    @Test
    void aPodOfNoTenantIsHiddenButTheWordForNoTenantStays() {
        Triage whole = answer(ACME_POD, List.of("scratch/notebook-3"),
                List.of(new Evidence(AT, "usage", "scratch/notebook-3 (tenant unassigned) held the card; cause of its "
                        + "growth unknown", null)), List.of(), List.of(),
                List.of(new Named(SubjectKind.POD, "scratch", "notebook-3", "unassigned")));
        Triage cut = TenantCut.of(whole, "acme").orElseThrow();
        assertEquals(List.of(), cut.scope().alike());
        assertEquals("another tenant's pod (tenant unassigned) held the card; cause of its growth unknown",
                cut.evidence().get(0).fact());
    }

    @Test
    void anotherTenantsSubjectANodeOrASubjectOfNoTenantIsNotTheTenants() {
        Subject initech = new Subject(SubjectKind.POD, "east", "initech-ml", "big-0", "uid-2", "initech");
        Subject node = new Subject(SubjectKind.NODE, "east", null, "gpu-a100-01", "uid-3", null);
        Subject noTenant = new Subject(SubjectKind.POD, "east", "default", "x", "uid-4", null);
        for (Subject s : List.of(initech, node, noTenant)) {
            assertTrue(TenantCut.of(answer(s, List.of(), List.of(), List.of(), List.of(), MARKED), "acme").isEmpty(),
                    s.toString());
        }
        assertTrue(TenantCut.of(answer(ACME_POD, List.of(), List.of(), List.of(), List.of(), MARKED), "acme").isPresent());
    }
}
