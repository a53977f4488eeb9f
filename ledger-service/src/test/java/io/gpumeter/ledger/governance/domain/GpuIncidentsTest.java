package io.gpumeter.ledger.governance.domain;

import io.gpumeter.common.triage.RootCauseClass;

import io.gpumeter.common.fact.GpuAddressFact;
import io.gpumeter.common.fact.XidFact;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static io.gpumeter.ledger.governance.domain.Facts.t;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class GpuIncidentsTest {

    static final String UUID = "GPU-509665ad-b600-ac93-3616-d754b23d636d";

    static XidFact xid(int code, String at, String uuid) {
        return new XidFact("xe9680-1", "0000:9b:00", uuid, t(at), code, 2024380L, "nvidia-smi", "message at " + at, "kmsg");
    }

    static GpuAddressFact announced(String at) {
        return new GpuAddressFact("xe9680-1", "0000:9b:00", UUID, t(at));
    }

    @Test
    void theFiveGspTimeoutsAreOneHardwareIncidentUntilTheCardIsBack() {
        List<XidFact> xids = List.of(xid(119, "2025-02-23T16:24:18Z", UUID), xid(119, "2025-02-23T16:24:24Z", UUID),
                xid(119, "2025-02-23T16:24:30Z", UUID), xid(119, "2025-02-23T16:27:12Z", UUID), xid(119, "2025-02-23T16:30:13Z", UUID));
        // The fixture's own announcement is in the same second as the first Xid; the reset brings the card back at 17:05.
        List<Incident> incidents = GpuIncidents.derive("xe9680-1", "0000:9b:00", xids,
                List.of(announced("2025-02-23T16:24:18Z"), announced("2025-02-23T17:05:00Z")));
        assertEquals(1, incidents.size());
        Incident i = incidents.get(0);
        assertEquals("xid-119", i.cause());
        assertEquals(RootCauseClass.DATA_PLANE, i.rootCause());
        assertEquals(5, i.occurrences());
        assertEquals(UUID, i.gpuUuid());
        assertEquals(t("2025-02-23T16:24:18Z"), i.startedAt());
        assertEquals(Duration.ofMinutes(40).plusSeconds(42), i.repair());
        assertEquals("xe9680-1/0000:9b:00", i.subject());
    }

    @Test
    void anApplicationXidNeedsNoRepairAndXid79IsTheCardLost() {
        List<Incident> incidents = GpuIncidents.derive("xe9680-1", "0000:9b:00",
                List.of(xid(13, "2026-05-01T00:00:00Z", null), xid(79, "2026-05-01T01:00:00Z", null),
                        xid(79, "2026-05-01T01:00:01Z", null)),
                List.of());
        assertEquals(List.of("xid-13", "gpu-lost"), incidents.stream().map(Incident::cause).toList());
        assertEquals(Duration.ZERO, incidents.get(0).repair());
        assertEquals(RootCauseClass.WORKLOAD, incidents.get(0).rootCause());
        assertNull(incidents.get(1).recoveredAt());
        assertEquals(2, incidents.get(1).occurrences());
        assertEquals(true, incidents.get(1).open());
    }

    @Test
    void anXidAfterTheCardCameBackIsANewIncident() {
        List<Incident> incidents = GpuIncidents.derive("xe9680-1", "0000:9b:00",
                List.of(xid(48, "2026-05-01T00:00:00Z", null), xid(48, "2026-05-01T02:00:00Z", null)),
                List.of(announced("2026-05-01T01:00:00Z")));
        assertEquals(2, incidents.size());
        assertEquals(Duration.ofHours(1), incidents.get(0).repair());
        assertEquals(UUID, incidents.get(1).gpuUuid(), "the announcement named the card");
        assertNull(incidents.get(1).recoveredAt());
    }
}
