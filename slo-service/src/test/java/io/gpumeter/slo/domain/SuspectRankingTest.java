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
        SuspectRanking.Neighbour ramper = new SuspectRanking.Neighbour("a/ramper", START.minusSeconds(3600),
                Map.of("SM_ACTIVE", List.of(v(0, 0.2), v(3, 0.2), v(6, 0.2), v(7, 0.8), v(8, 0.8), v(9, 0.8),
                        v(10, 0.8))));
        // newcomer: arrived 5 min before, no curves: arrival 1 - 5/10 = 0.5
        SuspectRanking.Neighbour newcomer = new SuspectRanking.Neighbour("b/newcomer", START.minusSeconds(300), Map.of());
        // calm: present 20 min, DRAM falling: rise floored at 0
        SuspectRanking.Neighbour calm = new SuspectRanking.Neighbour("c/calm", START.minusSeconds(1200),
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
}
