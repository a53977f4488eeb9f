package io.gpumeter.ledger.governance.domain;

import io.gpumeter.common.triage.RootCauseClass;

import io.gpumeter.common.fact.NodeFact;
import io.gpumeter.common.fact.RegisteredGpu;
import io.gpumeter.common.fact.WatchEventType;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static io.gpumeter.ledger.governance.domain.Facts.t;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NodeIncidentsTest {

    static NodeFact node(String rv, String at, Map<String, String> labels, String... uuids) {
        return node(rv, WatchEventType.MODIFIED, at, labels, uuids);
    }

    static NodeFact node(String rv, WatchEventType type, String at, Map<String, String> labels, String... uuids) {
        List<RegisteredGpu> gpus = Arrays.stream(uuids).map(u -> new RegisteredGpu(u, "NVIDIA-A100", 81920, 100, 10, 0, true)).toList();
        return new NodeFact("gpu-7", "n7", rv, type, t(at), labels, gpus);
    }

    @Test
    void aCardMissingFromALaterVersionIsLostUntilItIsRegisteredAgain() {
        // Versions arrive out of order; by resourceVersion: B vanishes at 10:00 (rv 20), all vanish at 11:00 (rv 30),
        // A and B are back at 11:30 (rv 40). A: lost 11:00 -> 11:30 (1800 s); B: lost 10:00 -> 11:30 (5400 s).
        List<Incident> incidents = NodeIncidents.derive(List.of(
                node("40", "2026-06-01T11:30:00Z", Map.of(), "GPU-A", "GPU-B"),
                node("10", "2026-06-01T09:00:00Z", Map.of(), "GPU-A", "GPU-B"),
                node("30", "2026-06-01T11:00:00Z", Map.of()),
                node("20", "2026-06-01T10:00:00Z", Map.of(), "GPU-A")));
        assertEquals(2, incidents.size());
        Incident b = incidents.get(0);
        assertEquals("GPU-B", b.gpuUuid());
        assertEquals("gpu-lost", b.cause());
        assertEquals(RootCauseClass.DATA_PLANE, b.rootCause());
        assertEquals(t("2026-06-01T10:00:00Z"), b.startedAt());
        assertEquals(Duration.ofSeconds(5400), b.repair());
        Incident a = incidents.get(1);
        assertEquals("GPU-A", a.gpuUuid());
        assertEquals(Duration.ofSeconds(1800), a.repair());
        assertEquals("gpu-7", a.node());
    }

    @Test
    void aNodeDeletedWithACardLostEndsTheIncidentUnrecovered() {
        List<Incident> incidents = NodeIncidents.derive(List.of(
                node("10", "2026-06-01T09:00:00Z", Map.of(), "GPU-A"),
                node("20", "2026-06-01T10:00:00Z", Map.of()),
                node("30", WatchEventType.DELETED, "2026-06-01T12:00:00Z", Map.of())));
        assertEquals(1, incidents.size());
        assertNull(incidents.get(0).recoveredAt());
        assertEquals(t("2026-06-01T12:00:00Z"), incidents.get(0).endedAt());
    }

    @Test
    void aNewMigConfigurationRecoversWhenTheManagerReportsSuccess() {
        // all-1g.10gb applied (success) -> all-3g.40gb set at 10:00 with the old success still on the node,
        // pending at 10:01, success at 10:09, discovery's counts catch up at 10:10: one incident, 540 s.
        List<Incident> incidents = NodeIncidents.derive(List.of(
                node("10", "2026-06-01T09:00:00Z", Map.of("nvidia.com/mig.config", "all-1g.10gb",
                        "nvidia.com/mig.config.state", "success", "nvidia.com/mig-1g.10gb.count", "7"), "GPU-A"),
                node("20", "2026-06-01T10:00:00Z", Map.of("nvidia.com/mig.config", "all-3g.40gb",
                        "nvidia.com/mig.config.state", "success", "nvidia.com/mig-1g.10gb.count", "7"), "GPU-A"),
                node("21", "2026-06-01T10:01:00Z", Map.of("nvidia.com/mig.config", "all-3g.40gb",
                        "nvidia.com/mig.config.state", "pending", "nvidia.com/mig-1g.10gb.count", "7"), "GPU-A"),
                node("22", "2026-06-01T10:09:00Z", Map.of("nvidia.com/mig.config", "all-3g.40gb",
                        "nvidia.com/mig.config.state", "success", "nvidia.com/mig-1g.10gb.count", "7"), "GPU-A"),
                node("23", "2026-06-01T10:10:00Z", Map.of("nvidia.com/mig.config", "all-3g.40gb",
                        "nvidia.com/mig.config.state", "success", "nvidia.com/mig-3g.40gb.count", "2"), "GPU-A")));
        assertEquals(1, incidents.size());
        Incident mig = incidents.get(0);
        assertEquals("mig-reconfiguration", mig.cause());
        assertEquals(RootCauseClass.OPERATIONS_CONFIGURATION, mig.rootCause());
        assertEquals(t("2026-06-01T10:00:00Z"), mig.startedAt());
        assertEquals(Duration.ofSeconds(540), mig.repair());
        assertNull(mig.gpuUuid());
        assertTrue(mig.evidence().contains("'all-1g.10gb' -> 'all-3g.40gb'"), mig.evidence());
    }

    @Test
    void aFailedConfigurationStaysOpenAndCountsWithoutAManagerApplyAtOnce() {
        List<Incident> failed = NodeIncidents.derive(List.of(
                node("10", "2026-06-01T09:00:00Z", Map.of("nvidia.com/mig.config", "all-disabled", "nvidia.com/mig.config.state", "success")),
                node("20", "2026-06-01T10:00:00Z", Map.of("nvidia.com/mig.config", "all-1g.10gb", "nvidia.com/mig.config.state", "failed"))));
        assertEquals(1, failed.size());
        assertTrue(failed.get(0).open());

        // No mig.config label: discovery's counts changing is the reconfiguration, applied at once.
        List<Incident> manual = NodeIncidents.derive(List.of(
                node("10", "2026-06-01T09:00:00Z", Map.of("nvidia.com/mig-1g.10gb.count", "7")),
                node("20", "2026-06-01T10:00:00Z", Map.of("nvidia.com/mig-1g.10gb.count", "7", "team", "a")),
                node("30", "2026-06-01T11:00:00Z", Map.of("nvidia.com/mig-2g.20gb.count", "3"))));
        assertEquals(1, manual.size(), "a label change that is no MIG layout is nothing");
        assertEquals(t("2026-06-01T11:00:00Z"), manual.get(0).startedAt());
        assertEquals(Duration.ZERO, manual.get(0).repair());
        assertTrue(manual.get(0).evidence().contains("7x1g.10gb -> 3x2g.20gb"), manual.get(0).evidence());
    }
}
