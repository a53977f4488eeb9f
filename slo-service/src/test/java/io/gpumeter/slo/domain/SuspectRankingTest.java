package io.gpumeter.slo.domain;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class SuspectRankingTest {

    private static final Instant START = Instant.parse("2026-08-03T10:10:00Z");

    private static Instant at(int minute) {
        return Instant.parse("2026-08-03T10:00:00Z").plusSeconds(60L * minute);
    }

    private static SuspectRanking.MinuteValue v(int minute, double value) {
        return new SuspectRanking.MinuteValue(at(minute), value);
    }

    @Test
    void aSharpRampOutranksAnArrivalFiveMinutesBeforeAndACalmNeighbourComesLast() {
        // ramper: present 60 min; SM_ACTIVE 0.2 on 10:00-10:06, then 10:07-10:10 at 0.8 (mean of 4 recent points)
        SuspectRanking.Candidate ramper = SuspectRanking.Candidate.neighbour("a/ramper", START.minusSeconds(3600),
                Map.of("SM_ACTIVE", List.of(v(0, 0.2), v(3, 0.2), v(6, 0.2), v(7, 0.8), v(8, 0.8), v(9, 0.8),
                        v(10, 0.8))));
        // newcomer: arrived 5 min before, no curves: arrival 1 - 5/10 = 0.5
        SuspectRanking.Candidate newcomer = SuspectRanking.Candidate.neighbour("b/newcomer", START.minusSeconds(300), Map.of());
        // calm: present 20 min, DRAM falling: rise floored at 0
        SuspectRanking.Candidate calm = SuspectRanking.Candidate.neighbour("c/calm", START.minusSeconds(1200),
                Map.of("DRAM_ACTIVE", List.of(v(0, 0.9), v(9, 0.1))));
        List<SuspectRanking.Suspect> ranked = SuspectRanking.rank(START, List.of(calm, newcomer, ramper));
        assertEquals(List.of("a/ramper", "b/newcomer", "c/calm"), ranked.stream().map(SuspectRanking.Suspect::key).toList());
        // ramper: 0.8 - 0.2 = 0.6 rise, arrival 0 (60 min before)
        assertEquals(0.6, ranked.get(0).score(), 1e-9);
        assertEquals(0.6, ranked.get(0).ramp(), 1e-9);
        assertEquals(0.0, ranked.get(0).arrival(), 1e-9);
        assertEquals(0.5, ranked.get(1).score(), 1e-9);
        assertEquals(0.0, ranked.get(2).score(), 1e-9);
        assertEquals(List.of(1, 2, 3), ranked.stream().map(SuspectRanking.Suspect::rank).toList());
    }

    @Test
    void theHostAndTheCardAreRankedWithTheNeighboursByTheSameRuleEachByItsOwnCurves() {
        // own CPU: throttled in 0.05 of its CFS periods until 10:06, then 0.65: ramp 0.6, no arrival
        SuspectRanking.Candidate cpu = new SuspectRanking.Candidate("cpu-throttling:ml/chat-0", SuspectKind.CPU_THROTTLING,
                null, Map.of("CFS_THROTTLED_RATIO", List.of(v(0, 0.05), v(6, 0.05), v(7, 0.65), v(10, 0.65)),
                // a curve its kind does not rise by counts for nothing
                "DRAM_ACTIVE", List.of(v(0, 0), v(9, 1))));
        // the card: its software power cap active in none of its samples, then in all from 10:07: ramp 1
        SuspectRanking.Candidate card = new SuspectRanking.Candidate("card-clocks:GPU-A", SuspectKind.CARD_CLOCKS, null,
                Map.of("CLOCKS_EVENT_SW_POWER_CAP", List.of(v(0, 0), v(6, 0), v(7, 1), v(10, 1))));
        // a neighbour that arrived 5 min before (arrival 0.5) and whose SM_ACTIVE rose 0.4: 0.9
        SuspectRanking.Candidate newcomer = SuspectRanking.Candidate.neighbour("b/newcomer", START.minusSeconds(300),
                Map.of("SM_ACTIVE", List.of(v(5, 0.1), v(6, 0.1), v(8, 0.5), v(10, 0.5))));
        // the node's I/O pressure flat at 0.02
        SuspectRanking.Candidate io = new SuspectRanking.Candidate("node-io-pressure:n1", SuspectKind.NODE_IO_PRESSURE,
                null, Map.of("IO_PRESSURE", List.of(v(0, 0.02), v(9, 0.02))));
        List<SuspectRanking.Suspect> ranked = SuspectRanking.rank(START, List.of(io, newcomer, card, cpu));
        assertEquals(List.of("card-clocks:GPU-A", "b/newcomer", "cpu-throttling:ml/chat-0", "node-io-pressure:n1"),
                ranked.stream().map(SuspectRanking.Suspect::key).toList());
        assertEquals(List.of(1.0, 0.9, 0.6, 0.0), ranked.stream().map(SuspectRanking.Suspect::score).toList());
        SuspectRanking.Suspect own = ranked.get(2);
        assertEquals("cpu-throttling", own.kind());
        assertEquals("cpu-saturated", own.cause());
        assertEquals(SuspectKind.CPU_THROTTLING, own.suspectKind());
        assertEquals(List.of("CFS_THROTTLED_RATIO"), own.rises().stream().map(SuspectRanking.Rise::field).toList());
        assertEquals(List.of("the service's own host, no arrival (arrival 0)",
                "CFS_THROTTLED_RATIO rose from 0.050 to 0.650 in the 3 min before the event"), own.reasons());
        assertEquals("power-or-thermal", ranked.get(0).cause());
        assertEquals("neighbour", ranked.get(1).kind());
        assertEquals("neighbour-interference", ranked.get(1).cause());
    }

    @Test
    void aSuspectStoredBeforeThereWereKindsIsANeighbour() {
        SuspectRanking.Suspect old = new SuspectRanking.Suspect(1, "a/b", null, null, 0.5, 0.5, 5.0, 0, List.of(),
                List.of());
        assertEquals(SuspectKind.NEIGHBOUR, old.suspectKind());
        assertEquals("ml/chat-0", SuspectKind.CPU_THROTTLING.subject("cpu-throttling:ml/chat-0"));
        assertEquals("a/b", SuspectKind.NEIGHBOUR.subject("a/b"));
    }
}
