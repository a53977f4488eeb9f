package io.gpumeter.ledger.governance.domain;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IncidentIdsTest {

    static final Instant NANOS = Instant.parse("2026-05-01T10:00:00.123456789Z");
    static final Instant MICROS = Instant.parse("2026-05-01T10:00:00.123456Z");

    @Test
    void theSameIncidentDerivedFromABatchAndFromTheStoreHasOneId() {
        // in hand: the instant as the collector sent it; read back: the microseconds PostgreSQL kept
        String fresh = IncidentIds.of("c", "pod/u1/oom/main/" + NANOS, NANOS);
        String stored = IncidentIds.of("c", "pod/u1/oom/main/" + MICROS, MICROS);
        assertEquals(fresh, stored);
        assertEquals(IncidentIds.LENGTH, fresh.length());
        assertTrue(IncidentIds.wellFormed(fresh));
    }

    @Test
    void whatTellsIncidentsApartChangesTheId() {
        String base = IncidentIds.of("c", "pod/u1/oom/main/" + MICROS, MICROS);
        assertNotEquals(base, IncidentIds.of("d", "pod/u1/oom/main/" + MICROS, MICROS), "cluster");
        assertNotEquals(base, IncidentIds.of("c", "pod/u1/oom/sidecar/" + MICROS, MICROS), "container");
        assertNotEquals(base, IncidentIds.of("c", "pod/u1/crash-loop/main/" + MICROS, MICROS), "cause");
        assertNotEquals(base, IncidentIds.of("c", "pod/u2/oom/main/" + MICROS, MICROS), "subject");
        Instant nextMicro = MICROS.plusNanos(1000);
        assertNotEquals(base, IncidentIds.of("c", "pod/u1/oom/main/" + nextMicro, nextMicro), "start");
    }

    @ParameterizedTest
    @CsvSource({
            "pod/u1/oom/main/2026-05-01T10:00:00Z, pod/u1/oom/main",
            "gpu/n1/0000:3b:00.0/xid-79/2026-05-01T10:00:00.5Z, gpu/n1/0000:3b:00.0/xid-79",
            "node/n1/gpu-lost/GPU-1/2026-05-01T10:00:00Z, node/n1/gpu-lost/GPU-1",
            "node-oom/n1/7f9c-event-uid, node-oom/n1/7f9c-event-uid",
            "mig/n1/mig-inconsistent/2026-05-01T10:00:00Z, mig/n1/mig-inconsistent"})
    void theKeyLosesItsStartOnly(String key, String identity) {
        assertEquals(identity, IncidentIds.withoutStart(key));
    }

    @Test
    void anythingButTwentyFourLowerHexDigitsIsNoId() {
        assertFalse(IncidentIds.wellFormed(null));
        assertFalse(IncidentIds.wellFormed("pod/u1/oom"));
        assertFalse(IncidentIds.wellFormed("0123456789ABCDEF01234567"));
        assertFalse(IncidentIds.wellFormed("0123456789abcdef0123456"));
        assertTrue(IncidentIds.wellFormed("0123456789abcdef01234567"));
    }
}
