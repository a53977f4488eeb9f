package io.gpumeter.ledger.governance.domain;

import io.gpumeter.common.fact.NodeStatusFact;
import io.gpumeter.common.fact.WatchEventType;
import io.gpumeter.ledger.governance.domain.NodeCordons.Cordon;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class NodeCordonsTest {

    static final Instant T = Instant.parse("2026-06-01T00:00:00Z");

    static NodeStatusFact version(int rv, WatchEventType type, int hour, boolean cordoned, Map<String, String> marks) {
        return new NodeStatusFact("n1", "u1", String.valueOf(rv), type, T.plusSeconds(hour * 3600L), null, Map.of(), Map.of(),
                cordoned, List.of(), Map.of(), marks);
    }

    @Test
    void cordonsInResourceVersionOrderEachWithWhoMadeIt() {
        Map<String, String> runbook = Map.of("gpumeter.io/cordoned-by", "alert-service");
        // Arrival order is not the order they happened: rv 20's cordon comes after rv 10's baseline.
        List<Cordon> cordons = NodeCordons.of(List.of(
                version(30, WatchEventType.MODIFIED, 4, false, Map.of()),
                version(10, WatchEventType.MODIFIED, 0, true, Map.of()),
                version(15, WatchEventType.MODIFIED, 1, false, Map.of()),
                version(20, WatchEventType.MODIFIED, 2, true, runbook),
                version(40, WatchEventType.MODIFIED, 6, true, Map.of()),
                version(50, WatchEventType.DELETED, 8, true, Map.of()),
                version(60, WatchEventType.ADDED, 9, true, Map.of())));
        assertEquals(List.of(
                new Cordon(T, T.plusSeconds(3600), false, true),
                new Cordon(T.plusSeconds(2 * 3600), T.plusSeconds(4 * 3600), true, false),
                new Cordon(T.plusSeconds(6 * 3600), T.plusSeconds(8 * 3600), false, false),
                new Cordon(T.plusSeconds(9 * 3600), null, false, true)), cordons);
    }
}
