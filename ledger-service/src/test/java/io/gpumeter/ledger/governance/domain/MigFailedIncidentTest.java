package io.gpumeter.ledger.governance.domain;

import io.gpumeter.common.fact.NodeFact;
import io.gpumeter.common.fact.WatchEventType;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A MIG reconfiguration the MIG manager reports failed stays open, as failed, until a later success. */
class MigFailedIncidentTest {

    static NodeFact node(String rv, String at, String config, String state) {
        return new NodeFact("mig-1", "m1", rv, WatchEventType.MODIFIED, Instant.parse(at),
                state == null ? Map.of("nvidia.com/mig.config", config)
                        : Map.of("nvidia.com/mig.config", config, "nvidia.com/mig.config.state", state), List.of());
    }

    @Test
    void failedKeepsItOpenAsFailed() {
        List<Incident> incidents = NodeIncidents.derive(List.of(
                node("30", "2026-06-01T10:20:00Z", "all-1g.10gb", "failed"),
                node("10", "2026-06-01T10:00:00Z", "all-disabled", "success"),
                node("20", "2026-06-01T10:01:00Z", "all-1g.10gb", "pending")));
        assertEquals(1, incidents.size());
        Incident mig = incidents.get(0);
        assertEquals("mig-reconfiguration", mig.cause());
        assertTrue(mig.open());
        assertEquals(Instant.parse("2026-06-01T10:01:00Z"), mig.startedAt());
        assertTrue(mig.evidence().endsWith("failed: nvidia.com/mig.config.state=failed at 2026-06-01T10:20:00Z"),
                mig.evidence());
    }

    @Test
    void aLaterSuccessRecoversIt() {
        List<Incident> incidents = NodeIncidents.derive(List.of(
                node("10", "2026-06-01T10:00:00Z", "all-disabled", "success"),
                node("20", "2026-06-01T10:01:00Z", "all-1g.10gb", "pending"),
                node("30", "2026-06-01T10:20:00Z", "all-1g.10gb", "failed"),
                node("35", "2026-06-01T10:25:00Z", "all-1g.10gb", "failed"),
                node("40", "2026-06-01T10:31:00Z", "all-1g.10gb", "success")));
        assertEquals(1, incidents.size());
        Incident mig = incidents.get(0);
        assertEquals(Instant.parse("2026-06-01T10:31:00Z"), mig.recoveredAt());
        assertNull(mig.endedAt());
        // The failure is told once, at its first report.
        assertEquals(1, mig.evidence().split("failed at").length - 1);
    }
}
