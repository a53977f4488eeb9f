package io.gpumeter.ledger.governance.domain;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class NearestRankTest {

    /** Ranks worked out by hand: ceil(p/100 · n). */
    @ParameterizedTest(name = "p{0} of {1} values is rank {2}")
    @CsvSource({
            "50, 1, 1", "95, 1, 1", "99, 1, 1",
            "50, 2, 1", "95, 2, 2",
            "50, 10, 5", "95, 10, 10", "99, 10, 10",
            "50, 20, 10", "95, 20, 19", "99, 20, 20",
            "50, 21, 11", "95, 21, 20", "99, 21, 21",
            "50, 22, 11", "95, 22, 21", "99, 22, 22",
            "50, 100, 50", "95, 100, 95", "99, 100, 99", "100, 100, 100", "1, 100, 1",
            "50, 101, 51", "95, 101, 96", "99, 101, 100",
    })
    void ranks(int percent, int n, int rank) {
        assertEquals(rank, NearestRank.rank(percent, n));
    }

    @Test
    void valuesAreObservedNeverInterpolated() {
        List<Long> values = Arrays.asList(15L, 20L, 35L, 40L, 50L);
        // The textbook example: p30 = 20, p40 = 20, p50 = 35, p100 = 50.
        assertEquals(20, NearestRank.of(values, 30));
        assertEquals(20, NearestRank.of(values, 40));
        assertEquals(35, NearestRank.of(values, 50));
        assertEquals(50, NearestRank.of(values, 100));
        assertEquals(35, NearestRank.of(List.of(50L, 15L, 40L, 35L, 20L), 50), "order of input does not matter");
    }

    @Test
    void nothingOrOutOfRangeIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> NearestRank.rank(50, 0));
        assertThrows(IllegalArgumentException.class, () -> NearestRank.rank(0, 5));
        assertThrows(IllegalArgumentException.class, () -> NearestRank.rank(101, 5));
    }
}
