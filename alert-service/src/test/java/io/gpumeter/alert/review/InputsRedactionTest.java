package io.gpumeter.alert.review;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.common.fact.ContainerState;
import io.gpumeter.common.fact.ContainerStatusFact;
import io.gpumeter.common.fact.EventFact;
import io.gpumeter.common.fact.FactBatch;
import io.gpumeter.common.fact.FactBundle;
import io.gpumeter.common.fact.GovernanceBatch;
import io.gpumeter.common.fact.LogSignalFact;
import io.gpumeter.common.fact.NamespaceFact;
import io.gpumeter.common.fact.NodeFact;
import io.gpumeter.common.fact.NodeStatusFact;
import io.gpumeter.common.fact.Owner;
import io.gpumeter.common.fact.PendingPositionFact;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.common.fact.RegisteredGpu;
import io.gpumeter.common.fact.UsageBatch;
import io.gpumeter.common.fact.UsageField;
import io.gpumeter.common.fact.UsagePartial;
import io.gpumeter.common.fact.UsageScope;
import io.gpumeter.common.fact.VgpuGrant;
import io.gpumeter.common.fact.WatchEventType;
import io.gpumeter.common.triage.InputBundle;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

public class InputsRedactionTest {

    private static final Instant T = Instant.parse("2026-11-02T10:00:00Z");

    static PodStatusFact pod(String ns, String name, String node, String message) {
        return new PodStatusFact("uid-" + name, ns, name, "1", WatchEventType.MODIFIED, T, T, T, null, node,
                "default-scheduler", "Running", null, message, new Owner("Job", name + "-job"), null, "team-queue",
                Map.of("nvidia.com/gpu", 4L), T, List.of(new ContainerStatusFact("main", false, 1,
                new ContainerState("terminated", "OOMKilled", "killed: " + name, 137, T, T), null)));
    }

    public static GovernanceBatch batch() {
        return new GovernanceBatch("c1", List.of(), List.of(), List.of(), List.of(),
                List.of(new EventFact("e1", "ml-team", "trainer-0.1", "1", T, "Pod", "ml-team", "trainer-0", "uid-trainer-0",
                                "Preempted", "Normal", "Preempted by rival-lab/secret-run-7 on nvidia.com/gpu; rival-lab owns gpu",
                                "kueue", null, T, T, 1),
                        new EventFact("e2", "rival-lab", "secret-run-7.1", "1", T, "Pod", "rival-lab", "secret-run-7",
                                "uid-secret-run-7", "Scheduled", "Normal", "Assigned rival-lab/secret-run-7 to gpu-1",
                                "default-scheduler", null, T, T, 1)),
                List.of(pod("ml-team", "trainer-0", "gpu-1", "OOM"), pod("rival-lab", "secret-run-7", "gpu-1", "mine")),
                List.of(), List.of(), List.of(new LogSignalFact("rival-lab", "secret-run-7", "main", T, "oom",
                        "project falcon out of memory")),
                List.of(new PendingPositionFact("cq", "rival-lab", "secret-wl", "team-queue", 1, 2, 1, T)),
                List.of(new NodeStatusFact("gpu-1", "n-uid", "1", WatchEventType.MODIFIED, T, T, Map.of("nvidia.com/gpu", 8L),
                        Map.of("nvidia.com/gpu", 8L), false, List.of(), Map.of(), Map.of())),
                List.of(), List.of(), List.of());
    }

    static NamespaceFact namespace(String name, String tenant) {
        return new NamespaceFact(name, "ns-" + name, "1", WatchEventType.ADDED, T, Map.of("gpumeter.io/tenant", tenant),
                Map.of("gpumeter.io/tenant", T));
    }

    static PodFact share(String ns, String name, long mib) {
        return new PodFact("uid-" + name, ns, name, "1", WatchEventType.MODIFIED, T, T, T, "gpu-1", "Running",
                "hami-scheduler", false, null, null, new Owner("Job", name + "-job"), Map.of("app", name + "-app"),
                Map.of("nvidia.com/gpu", 1L, "nvidia.com/gpumem", mib), List.of(new VgpuGrant(0, "GPU-1", "NVIDIA", mib, 50)),
                List.of(), "success", "gpu-1");
    }

    static UsagePartial series(UsageScope scope, String key, String ns, String pod, UsageField field, double value) {
        return new UsagePartial("GPU-1", "gpu-1", scope, key, null, ns, pod, ns == null ? null : "main", field, T,
                new int[]{10_000}, new double[]{value});
    }

    /**
     * What the ledger answers for ml-team/trainer-0: the governance facts of {@link #batch()}, both pods' versions
     * sharing GPU-1 (rival-lab's labelled with its app), both namespaces with their tenants, the node's registration,
     * and the card's memory minute with each pod's HAMi series and rival-lab's process.
     */
    public static InputBundle inputs() {
        FactBatch facts = new FactBatch("c1", List.of(namespace("ml-team", "acme"), namespace("rival-lab", "rival-corp")),
                List.of(new NodeFact("gpu-1", "n-uid", "1", WatchEventType.ADDED, T, Map.of("nvidia.com/gpu.product", "A100"),
                        List.of(new RegisteredGpu("GPU-1", "A100", 81920, 100, 10, 0, true)))),
                List.of(share("ml-team", "trainer-0", 40960), share("rival-lab", "secret-run-7", 60000)));
        UsageBatch usage = new UsageBatch("c1", List.of(), List.of(
                series(UsageScope.DEVICE, "", null, null, UsageField.FB_USED_MIB, 81500),
                series(UsageScope.CONTAINER, "ml-team/trainer-0/main", "ml-team", "trainer-0", UsageField.VGPU_MEMORY_USED_MIB, 30000),
                series(UsageScope.CONTAINER, "rival-lab/secret-run-7/main", "rival-lab", "secret-run-7",
                        UsageField.VGPU_MEMORY_USED_MIB, 51000),
                series(UsageScope.PROCESS, "rival-lab/secret-run-7/main/77", "rival-lab", "secret-run-7",
                        UsageField.FB_USED_MIB, 50000)));
        return new InputBundle("c1", new FactBundle(facts, batch()), usage);
    }

    @Test
    void anotherTenantsPodVersionsAndSeriesKeepWhatTheyHeldAndUsedUnderTheSamePseudonyms() throws Exception {
        InputBundle in = inputs();
        InputsRedaction.Redacted r = InputsRedaction.redact(in, Set.of("ml-team"));
        String text = new ObjectMapper().findAndRegisterModules().writeValueAsString(r.inputs());
        for (String secret : List.of("rival-lab", "secret-run-7", "rival-corp", "secret-run-7-app", "uid-secret-run-7")) {
            assertFalse(text.contains(secret), secret + " left in " + text);
        }
        FactBatch facts = r.inputs().facts();
        assertEquals(share("ml-team", "trainer-0", 40960), facts.pods().get(0), "the tenant's own pod is kept as it was");
        PodFact other = facts.pods().get(1);
        PodStatusFact view = r.batch().podStatuses().get(1);
        assertEquals(view.namespace(), other.namespace(), "one pseudonym in every half");
        assertEquals(view.name(), other.name());
        assertEquals(view.uid(), other.uid());
        assertEquals(view.owner(), other.owner());
        assertEquals("gpu-1", other.nodeName());
        assertEquals(share("rival-lab", "secret-run-7", 60000).vgpus(), other.vgpus(), "what it held on the card");
        assertEquals(share("rival-lab", "secret-run-7", 60000).gpuResources(), other.gpuResources());
        assertEquals(Map.of(), other.labels());
        assertEquals(List.of("ml-team"), facts.namespaces().stream().map(NamespaceFact::name).toList(),
                "another namespace's versions name its tenant: left out");
        assertEquals(inputs().facts().nodes(), facts.nodes(), "the cluster's nodes and registrations as they were");

        List<UsagePartial> series = r.inputs().usage().partials();
        assertSame(in.usage().partials().get(0), series.get(0), "the card's own series as it was");
        assertSame(in.usage().partials().get(1), series.get(1), "the tenant's own series as it was");
        assertEquals(view.namespace() + "/" + view.name() + "/main", series.get(2).scopeKey());
        assertEquals(view.name(), series.get(2).pod());
        assertEquals(view.namespace(), series.get(2).namespace());
        assertArrayEquals(new double[]{51000}, series.get(2).values(), "what it used on the card");
        assertEquals(view.namespace() + "/" + view.name() + "/main/77", series.get(3).scopeKey());
        assertTrue(InputsRedaction.note(r).startsWith("11 facts and 4 usage values; 1 other namespaces"), InputsRedaction.note(r));
    }

    @Test
    void theRedactedInputsAreWhatTheIntakesReadStrictly() throws Exception {
        ObjectMapper strict = new ObjectMapper().findAndRegisterModules()
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
        InputBundle in = InputsRedaction.redact(inputs(), Set.of("ml-team")).inputs();
        String written = strict.writeValueAsString(in);
        InputBundle read = strict.readValue(written, InputBundle.class);
        assertEquals(in.bundle(), read.bundle());
        assertEquals(written, strict.writeValueAsString(read));
        // each half alone is what its intake reads
        strict.readValue(strict.writeValueAsString(in.bundle()), FactBundle.class);
        strict.readValue(strict.writeValueAsString(in.usage()), UsageBatch.class);
    }

    @Test
    void anotherTenantsObjectsKeepWhatTheySayUnderPseudonyms() throws Exception {
        InputsRedaction.Redacted r = InputsRedaction.redact(batch(), Set.of("ml-team"));
        String text = new ObjectMapper().findAndRegisterModules().writeValueAsString(r.batch());
        for (String secret : List.of("rival-lab", "secret-run-7", "secret-wl", "project falcon", "uid-secret-run-7")) {
            assertFalse(text.contains(secret), secret + " left in " + text);
        }
        PodStatusFact own = r.batch().podStatuses().get(0);
        PodStatusFact other = r.batch().podStatuses().get(1);
        assertEquals(pod("ml-team", "trainer-0", "gpu-1", "OOM"), own, "the tenant's own pod is kept as it was");
        assertEquals("other-tenant-1", other.namespace());
        assertTrue(other.name().startsWith("redacted-"), other.name());
        assertEquals("gpu-1", other.nodeName());
        assertEquals(Map.of("nvidia.com/gpu", 4L), other.gpuResources(), "what it holds decides 'the cluster is full'");
        assertEquals("OOMKilled", other.containers().get(0).state().reason());
        assertEquals(InputsRedaction.DROPPED, other.message());
        assertEquals(InputsRedaction.DROPPED, other.containers().get(0).state().message());
        // the same object has the same pseudonym wherever it is named
        EventFact about = r.batch().events().get(1);
        assertEquals(other.name(), about.involvedName());
        assertEquals(other.uid(), about.involvedUid());
        assertNotEquals("uid-secret-run-7", other.uid());
        assertEquals("oom", r.batch().logSignals().get(0).signal());
        assertEquals(2, r.batch().pendingPositions().get(0).positionInClusterQueue());
        assertEquals(batch().nodeStatuses(), r.batch().nodeStatuses());
        assertEquals(1, r.namespaces());
    }

    @Test
    void theTenantsOwnTextLosesOtherTenantsNamesButNotTheResourcesItNames() {
        InputsRedaction.Redacted r = InputsRedaction.redact(batch(), Set.of("ml-team"));
        String message = r.batch().events().get(0).message();
        String pseudonym = r.batch().podStatuses().get(1).name();
        assertEquals("Preempted by other-tenant-1/" + pseudonym + " on nvidia.com/gpu; other-tenant-1 owns gpu", message);
    }

    @Test
    void theRedactedBatchIsOneTheIntakeReadsStrictly() throws Exception {
        ObjectMapper strict = new ObjectMapper().findAndRegisterModules()
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
        GovernanceBatch b = InputsRedaction.redact(batch(), Set.of("ml-team")).batch();
        assertEquals(b, strict.readValue(strict.writeValueAsString(b), GovernanceBatch.class));
    }
}
