package io.gpumeter.ledger.triage.pending;

import io.gpumeter.common.fact.NodeFact;
import io.gpumeter.common.fact.NodeStatusFact;
import io.gpumeter.common.fact.NodeTaint;
import io.gpumeter.common.fact.PodToleration;
import io.gpumeter.common.fact.StackPodFact;
import io.gpumeter.common.fact.WatchEventType;
import io.gpumeter.ledger.allocation.domain.UnitKind;
import io.gpumeter.ledger.fragmentation.domain.HeldUnit;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A cluster's nodes put together from their newest facts: labels, what they offer, their device plugin, what is held. */
class FleetsTest {

    private static final Instant AT = Instant.parse("2026-05-04T12:00:00Z");
    private static final Set<String> PLUGINS = Set.of("device-plugin", "hami-device-plugin");

    private static NodeStatusFact status(String name, Map<String, Long> capacity, Map<String, Long> allocatable,
                                         WatchEventType type) {
        return new NodeStatusFact(name, "u-" + name, "1", type, AT.minusSeconds(60), AT.minusSeconds(86_400), capacity,
                allocatable, false, List.of(new NodeTaint("nvidia.com/gpu", null, "NoSchedule")),
                Map.of("nvidia.com/gpu.product", "NVIDIA-A100-SXM4-80GB"), Map.of());
    }

    private static StackPodFact plugin(String name, String node, boolean ready, String waiting, WatchEventType type) {
        return new StackPodFact("gpu-operator", name, "u-" + name, "1", type, AT.minusSeconds(30), "device-plugin", node,
                List.of("nvcr.io/nvidia/k8s-device-plugin:v0.15.0"), ready ? "Running" : "Running", ready, ready ? 0 : 4, waiting);
    }

    private static HeldUnit unit(String node, UnitKind kind, String profile) {
        return new HeldUnit("demo", node, null, kind, profile, 0, 0);
    }

    @Test
    void eachNodeHasItsLabelsWhatItOffersItsPluginAndWhatIsHeldAgainstEachResource() {
        Fleet fleet = Fleets.of("demo", AT,
                List.of(status("gpu-a1", Map.of("nvidia.com/gpu", 8L), Map.of("nvidia.com/gpu", 8L), WatchEventType.MODIFIED),
                        status("gpu-m1", Map.of("nvidia.com/mig-1g.10gb", 7L), Map.of("nvidia.com/mig-1g.10gb", 7L),
                                WatchEventType.MODIFIED),
                        status("gpu-gone", Map.of("nvidia.com/gpu", 8L), Map.of("nvidia.com/gpu", 8L), WatchEventType.DELETED)),
                List.of(new NodeFact("gpu-a1", "u-gpu-a1", "1", WatchEventType.MODIFIED, AT, Map.of("gpu-pool", "a100"), List.of())),
                List.of(plugin("dp-a1-old", "gpu-a1", false, "CrashLoopBackOff", WatchEventType.MODIFIED),
                        plugin("dp-a1", "gpu-a1", true, null, WatchEventType.MODIFIED),
                        plugin("dp-m1", "gpu-m1", true, null, WatchEventType.DELETED)),
                PLUGINS,
                List.of(unit("gpu-a1", UnitKind.WHOLE, null), unit("gpu-a1", UnitKind.VGPU, null),
                        unit("gpu-m1", UnitKind.MIG, "1g.10gb"), unit("gpu-m1", UnitKind.MIG, "1g.10gb")));

        assertEquals(List.of("gpu-a1", "gpu-m1"), fleet.nodes().stream().map(NodeAt::name).toList(), "a deleted node is gone");
        NodeAt a1 = fleet.nodes().get(0);
        assertEquals("a100", a1.labels().get("gpu-pool"));
        assertEquals("NVIDIA-A100-SXM4-80GB", a1.labels().get("nvidia.com/gpu.product"), "its status's GPU labels too");
        assertTrue(a1.labelsKnown());
        assertEquals(DevicePlugin.State.READY, a1.plugin().state(), "a ready pod of the plugin wins over one not ready");
        assertEquals(Map.of("nvidia.com/gpu", 2L), a1.held(), "a card and a HAMi share count against whole GPUs");

        NodeAt m1 = fleet.nodes().get(1);
        assertFalse(m1.labelsKnown(), "only its status is stored");
        assertEquals(DevicePlugin.State.ABSENT, m1.plugin().state(), "its plugin's pod was deleted: none runs there");
        assertEquals(Map.of("nvidia.com/mig-1g.10gb", 2L), m1.held(), "MIG instances count against their profile");
        assertTrue(m1.notReporting("nvidia.com/mig-1g.10gb"), "no plugin runs there");
    }

    @Test
    void aClusterWhosePluginPodsTheLedgerNeverHeldHasTheirStateUnknown() {
        Fleet fleet = Fleets.of("demo", AT, List.of(status("gpu-a1", Map.of("nvidia.com/gpu", 8L),
                Map.of("nvidia.com/gpu", 0L), WatchEventType.MODIFIED)), List.of(), List.of(), PLUGINS, List.of());
        NodeAt a1 = fleet.nodes().get(0);
        assertEquals(DevicePlugin.State.UNKNOWN, a1.plugin().state());
        assertTrue(a1.notReporting("nvidia.com/gpu"), "allocatable 0 of 8 is not reporting, whatever the plugin");
    }

    @Test
    void tolerationsFollowKubernetesMatching() {
        NodeTaint dedicated = new NodeTaint("dedicated", "training", "NoSchedule");
        NodeTaint preferred = new NodeTaint("spot", "true", "PreferNoSchedule");
        assertEquals(List.of(dedicated), Placement.untolerated(null, List.of(dedicated, preferred)),
                "PreferNoSchedule never excludes a node");
        assertTrue(Placement.untolerated(new io.gpumeter.common.fact.PodPlacement(Map.of(), List.of(),
                List.of(new PodToleration("dedicated", "Equal", "training", null))), List.of(dedicated)).isEmpty());
        assertEquals(List.of(dedicated), Placement.untolerated(new io.gpumeter.common.fact.PodPlacement(Map.of(), List.of(),
                List.of(new PodToleration("dedicated", "Equal", "inference", "NoSchedule"))), List.of(dedicated)));
        assertTrue(Placement.untolerated(new io.gpumeter.common.fact.PodPlacement(Map.of(), List.of(),
                List.of(new PodToleration(null, "Exists", null, null))), List.of(dedicated)).isEmpty(), "tolerates every taint");
    }
}
