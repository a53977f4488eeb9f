package io.gpumeter.common.testing;

import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MutableClockTest {

    @Test
    void followsTheSystemClockPlusWhatTheTestMovedItOnBy() {
        MutableClock clock = new MutableClock();
        Clock berlin = clock.withZone(ZoneId.of("Europe/Berlin"));
        clock.advance(Duration.ofMinutes(10));
        Instant expected = Instant.now().plus(Duration.ofMinutes(10));
        assertTrue(Duration.between(expected, clock.instant()).abs().toSeconds() < 5, clock.instant().toString());
        assertTrue(Duration.between(expected, berlin.instant()).abs().toSeconds() < 5, "one offset in every zone");
        assertEquals(ZoneId.of("Europe/Berlin"), berlin.getZone());
        clock.reset();
        assertTrue(Duration.between(Instant.now(), clock.instant()).abs().toSeconds() < 5, clock.instant().toString());
    }
}
