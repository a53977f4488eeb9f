package io.gpumeter.alert.review;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.common.fact.ContainerState;
import io.gpumeter.common.fact.ContainerStatusFact;
import io.gpumeter.common.fact.EventFact;
import io.gpumeter.common.fact.GovernanceBatch;
import io.gpumeter.common.fact.LogSignalFact;
import io.gpumeter.common.fact.NodeStatusFact;
import io.gpumeter.common.fact.Owner;
import io.gpumeter.common.fact.PendingPositionFact;
import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.common.fact.WatchEventType;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
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
