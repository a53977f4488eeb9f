package io.gpumeter.common.domain;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TimeWindowTest {

    private static final Instant T0 = Instant.parse("2026-05-01T00:00:00Z");

    @Test
    void aWindowHoldsItsStartButNotItsEnd() {
        TimeWindow hour = TimeWindow.ending(T0.plus(Duration.ofHours(1)), Duration.ofHours(1));
        assertEquals(new TimeWindow(T0, T0.plus(Duration.ofHours(1))), hour);
        assertEquals(Duration.ofHours(1), hour.duration());
        assertTrue(hour.contains(T0));
        assertTrue(hour.contains(T0.plus(Duration.ofMinutes(59))));
        assertFalse(hour.contains(T0.plus(Duration.ofHours(1))));
        assertFalse(hour.contains(T0.minusNanos(1)));
    }

    @Test
    void anEmptyWindowContainsNothingAndAReversedOneIsRefused() {
        TimeWindow empty = new TimeWindow(T0, T0);
        assertEquals(Duration.ZERO, empty.duration());
        assertFalse(empty.contains(T0));
        assertThrows(IllegalArgumentException.class, () -> new TimeWindow(T0, T0.minusSeconds(1)));
        assertThrows(NullPointerException.class, () -> new TimeWindow(null, T0));
    }
}
