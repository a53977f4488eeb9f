package io.gpumeter.collector.kubernetes;

import io.gpumeter.common.fact.DriverSightingFact;
import io.gpumeter.common.fact.NodeStatusFact;
import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.common.fact.StackPodFact;
import io.gpumeter.common.fact.WatchEventType;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Heartbeat versions of the GPU stack's objects are not news; a change of what they say is, each time. */
class ContentChangesTest {

    static final Instant T0 = Instant.parse("2026-05-01T10:00:00Z");

    static NodeStatusFact node(String rv, WatchEventType type, long allocatable, Map<String, String> labels, int second) {
        return new NodeStatusFact("gpu-1", "uid-1", rv, type, T0.plusSeconds(second), T0.minusSeconds(86_400),
                Map.of("nvidia.com/gpu", 8L), Map.of("nvidia.com/gpu", allocatable), false, List.of(), labels, Map.of());
    }

    @Test
    void heartbeatsAreDroppedAndALabelChangingEverySecondGoesEverySecond() {
        ContentChanges changes = new ContentChanges(100);
        int sent = 0;
        for (int second = 0; second < 600; second++) {
            // a heartbeat every second, the flapping label moving every other one
            String value = String.valueOf(second / 2);
            if (changes.isNews("east", node(String.valueOf(1000 + second), WatchEventType.MODIFIED, 8,
                    Map.of("nvidia.com/flap", value), second))) {
                sent++;
            }
        }
        assertEquals(300, sent, "one per change of the label, none for the versions between");
        assertTrue(changes.isNews("east", node("2000", WatchEventType.MODIFIED, 0, Map.of("nvidia.com/flap", "299"), 601)),
                "allocatable dropped to 0");
        assertFalse(changes.isNews("east", node("2001", WatchEventType.MODIFIED, 0, Map.of("nvidia.com/flap", "299"), 602)));
    }

    @Test
    void clustersAreApartAndADeletionAlwaysGoesAndForgets() {
        ContentChanges changes = new ContentChanges(100);
        NodeStatusFact v1 = node("1", WatchEventType.ADDED, 8, Map.of(), 0);
        assertTrue(changes.isNews("east", v1));
        assertTrue(changes.isNews("west", v1), "the same node name in another cluster is another node");
        assertFalse(changes.isNews("east", node("2", WatchEventType.MODIFIED, 8, Map.of(), 1)));
        assertTrue(changes.isNews("east", node("3", WatchEventType.DELETED, 8, Map.of(), 2)));
        assertTrue(changes.isNews("east", node("4", WatchEventType.ADDED, 8, Map.of(), 3)), "re-added: news again");
    }

    @Test
    void pastItsCapacityTheLeastRecentObjectIsForgottenAndSentAgain() {
        ContentChanges changes = new ContentChanges(2);
        StackPodFact a = pod("a", 0);
        assertTrue(changes.isNews("c", a));
        assertTrue(changes.isNews("c", pod("b", 0)));
        assertTrue(changes.isNews("c", pod("c", 0)));
        assertEquals(2, changes.size());
        assertTrue(changes.isNews("c", a), "forgotten, so sent again");
        assertFalse(changes.isNews("c", pod("c", 0)));
    }

    @Test
    void aRestartIsNewsAndSoIsAnUndeliveredFactForgotten() {
        ContentChanges changes = new ContentChanges(10);
        assertTrue(changes.isNews("c", pod("a", 0)));
        assertTrue(changes.isNews("c", pod("a", 1)));
        DriverSightingFact sighting = new DriverSightingFact("gpu-1", "GPU-1", "550.54.15", "nvidia-smi", T0);
        assertTrue(changes.isNews("c", sighting));
        assertFalse(changes.isNews("c", new DriverSightingFact("gpu-1", "GPU-1", "550.54.15", "nvidia-smi", T0.plusSeconds(30))));
        changes.forget("c", sighting);
        assertTrue(changes.isNews("c", sighting));
        assertTrue(changes.isNews("c", new DriverSightingFact("gpu-1", "GPU-1", "560.35.03", "nvidia-smi", T0)), "upgraded");
    }

    @Test
    void otherFactsAlwaysGo() {
        ContentChanges changes = new ContentChanges(1);
        PodStatusFact other = new PodStatusFact("u", "ns", "p", "1", WatchEventType.MODIFIED, T0, null, null, null, null,
                null, null, null, null, null, null, null, Map.of(), null, List.of());
        assertTrue(changes.isNews("c", other));
        assertTrue(changes.isNews("c", other));
        assertEquals(0, changes.size());
    }

    private static StackPodFact pod(String name, int restarts) {
        return new StackPodFact("gpu-operator", name, "uid-" + name, "1", WatchEventType.MODIFIED, T0, "device-plugin",
                "gpu-1", List.of("nvcr.io/nvidia/k8s-device-plugin:v0.18.0"), "Running", true, restarts, null);
    }
}
