package io.gpumeter.ledger.allocation.domain;

import io.gpumeter.common.fact.NamespaceFact;
import io.gpumeter.common.fact.RegisteredGpu;
import io.gpumeter.common.fact.VgpuGrant;
import io.gpumeter.common.fact.WatchEventType;
import io.gpumeter.ledger.history.domain.NamespaceTimeline;
import io.gpumeter.ledger.history.domain.PodHistory;
import io.gpumeter.ledger.history.domain.PodVersions;
import io.gpumeter.ledger.inventory.domain.NodeInventory;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AllocationDeriverTest {

    static final Instant T0 = Instant.parse("2026-05-10T10:00:00Z");
    static final NormalizationPolicy POLICY = NormalizationPolicyTest.policy(VgpuRule.MAX);
    final AllocationDeriver deriver = new AllocationDeriver(new UnitPlanner(POLICY), "gpumeter.io/team", "gpumeter.io/project");

    static NodeInventory hamiNode() {
        return new NodeInventory("node-1", Map.of(NodeInventory.PRODUCT, "NVIDIA-H100-80GB-HBM3", NodeInventory.MEMORY, "81920"),
                List.of(new RegisteredGpu("GPU-1", "NVIDIA-H100-80GB-HBM3", 163840, 100, 10, 0, true)));
    }

    static NamespaceFact ns(long rv, String tenant, Instant labelTime, Instant observed) {
        return new NamespaceFact("team-a", "ns-uid", Long.toString(rv), rv == 1 ? WatchEventType.ADDED : WatchEventType.MODIFIED,
                observed, Map.of("gpumeter.io/tenant", tenant, "gpumeter.io/team", "vision"),
                Map.of("gpumeter.io/tenant", labelTime, "gpumeter.io/team", T0.minusSeconds(86400)));
    }

    @Test
    void hamiCoresZeroIsMeteredByPhysicalMemoryShare() {
        PodVersions pod = new PodVersions("u1").resources(Map.of("nvidia.com/gpu", 1L, "nvidia.com/gpumem", 20480L))
                .vgpus(new VgpuGrant(0, "GPU-1", "NVIDIA", 20480, 0)).hami("success", "node-1");
        List<AllocationSegment> segments = deriver.derive("c1",
                new PodHistory(List.of(pod.scheduled(2, T0))), hamiNode(), NamespaceTimeline.unknown("team-a"), List.of());
        assertEquals(1, segments.size());
        AllocationSegment s = segments.get(0);
        assertEquals(UnitKind.VGPU, s.unit().kind());
        assertEquals("GPU-1", s.unit().gpuUuid());
        // 20480 of the label's physical 81920 MiB, not of HAMi's scaled 163840.
        assertEquals(new BigDecimal("0.250000000000"), s.unit().fraction());
        assertNull(s.segEnd());
        assertEquals("team-a", s.tenant());
        assertEquals("unassigned", s.team());
    }

    @Test
    void tenantRelabelSplitsTheIntervalAtTheManagedFieldsTime() {
        Instant relabel = T0.plusSeconds(3600);
        NamespaceTimeline timeline = NamespaceTimeline.of("team-a", List.of(
                ns(1, "acme", T0.minusSeconds(86400), T0.minusSeconds(86400)),
                ns(7, "globex", relabel, relabel.plusSeconds(600))), "gpumeter.io/tenant", "gpumeter.io/team", "gpumeter.io/project");
        PodVersions pod = new PodVersions("u2");
        Instant end = T0.plusSeconds(7200);
        List<AllocationSegment> segments = deriver.derive("c1",
                new PodHistory(List.of(pod.scheduled(2, T0), pod.finished(3, T0, end, null))),
                new NodeInventory("node-1", Map.of(), List.of()), timeline, List.of());
        assertEquals(2, segments.size());
        assertEquals("acme", segments.get(0).tenant());
        assertEquals(T0, segments.get(0).segStart());
        assertEquals(relabel, segments.get(0).segEnd());
        assertEquals("globex", segments.get(1).tenant());
        assertEquals(relabel, segments.get(1).segStart());
        assertEquals(end, segments.get(1).segEnd());
        assertTrue(segments.stream().allMatch(s -> s.since().equals(T0) && s.until().equals(end)));
        assertTrue(segments.stream().allMatch(s -> s.team().equals("vision")));
    }

    @Test
    void relabelWithoutManagedFieldsTakesEffectWhenObserved() {
        Instant observed = T0.plusSeconds(1800);
        NamespaceFact first = ns(1, "acme", T0.minusSeconds(86400), T0.minusSeconds(86400));
        NamespaceFact second = new NamespaceFact("team-a", "ns-uid", "9", WatchEventType.MODIFIED, observed,
                Map.of("gpumeter.io/tenant", "globex"), Map.of());
        NamespaceTimeline timeline = NamespaceTimeline.of("team-a", List.of(second, first),
                "gpumeter.io/tenant", "gpumeter.io/team", "gpumeter.io/project");
        assertEquals("acme", timeline.tenantAt(observed.minusMillis(1)));
        assertEquals("globex", timeline.tenantAt(observed));
        assertEquals("acme", timeline.tenantAt(T0.minusSeconds(10 * 86400)));
    }

    @Test
    void podLabelsWinOverNamespaceLabels() {
        PodVersions pod = new PodVersions("u3").labels(Map.of("gpumeter.io/team", "speech", "gpumeter.io/project", "asr"));
        NamespaceTimeline timeline = NamespaceTimeline.of("team-a", List.of(ns(1, "acme", T0, T0)),
                "gpumeter.io/tenant", "gpumeter.io/team", "gpumeter.io/project");
        AllocationSegment s = deriver.derive("c1", new PodHistory(List.of(pod.scheduled(2, T0))),
                new NodeInventory("node-1", Map.of(), List.of()), timeline, List.of()).get(0);
        assertEquals("speech", s.team());
        assertEquals("asr", s.project());
        assertEquals("acme", s.tenant());
    }

    @Test
    void plainGpusOnTimeSlicedNodeAreReplicaShares() {
        PodVersions pod = new PodVersions("u4").resources(Map.of("nvidia.com/gpu", 2L));
        NodeInventory node = new NodeInventory("node-1", Map.of(NodeInventory.REPLICAS, "4",
                NodeInventory.SHARING_STRATEGY, "time-slicing", NodeInventory.PRODUCT, "NVIDIA-A100-SXM4-80GB"), List.of());
        List<AllocationSegment> segments = deriver.derive("c1", new PodHistory(List.of(pod.scheduled(2, T0))), node,
                NamespaceTimeline.unknown("team-a"), List.of());
        assertEquals(2, segments.size());
        assertTrue(segments.stream().allMatch(s -> s.unit().kind() == UnitKind.SHARED
                && s.unit().fraction().compareTo(new BigDecimal("0.25")) == 0 && s.unit().gpuUuid() == null));
    }

    @Test
    void migSingleStrategyMakesEveryGpuASlice() {
        PodVersions pod = new PodVersions("u5").resources(Map.of("nvidia.com/gpu", 1L));
        NodeInventory node = new NodeInventory("node-1", Map.of(NodeInventory.MIG_STRATEGY, "single",
                NodeInventory.PRODUCT, "NVIDIA-A100-SXM4-40GB-MIG-3g.20gb"), List.of());
        AllocationSegment s = deriver.derive("c1", new PodHistory(List.of(pod.scheduled(2, T0))), node,
                NamespaceTimeline.unknown("team-a"), List.of()).get(0);
        assertEquals(UnitKind.MIG, s.unit().kind());
        assertEquals("3g.20gb", s.unit().migProfile());
        assertEquals("NVIDIA-A100-SXM4-40GB", s.unit().gpuModel());
        assertEquals(0, s.unit().fraction().compareTo(new BigDecimal("0.428571428571")));
    }

    @Test
    void migResourcesAreSlicesOfTheCard() {
        PodVersions pod = new PodVersions("u6").resources(Map.of("nvidia.com/mig-1g.10gb", 2L, "nvidia.com/mig-2g.20gb", 1L));
        List<AllocationSegment> segments = deriver.derive("c1", new PodHistory(List.of(pod.scheduled(2, T0))),
                new NodeInventory("node-1", Map.of(NodeInventory.PRODUCT, "NVIDIA-A100-SXM4-80GB"), List.of()),
                NamespaceTimeline.unknown("team-a"), List.of());
        BigDecimal total = segments.stream().map(s -> s.unit().fraction()).reduce(BigDecimal.ZERO, BigDecimal::add);
        assertEquals(3, segments.size());
        assertEquals(0, total.compareTo(new BigDecimal("0.571428571428")));
    }

    @Test
    void podWithoutGpusHasNoAllocation() {
        PodVersions pod = new PodVersions("u7").resources(Map.of());
        assertTrue(deriver.derive("c1", new PodHistory(List.of(pod.scheduled(2, T0))),
                new NodeInventory("node-1", Map.of(), List.of()), NamespaceTimeline.unknown("team-a"), List.of()).isEmpty());
    }
}
