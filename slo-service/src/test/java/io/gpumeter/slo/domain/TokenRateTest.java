package io.gpumeter.slo.domain;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class TokenRateTest {

    private static TokenRate.Reading at(int seconds, double value) {
        return new TokenRate.Reading(Instant.parse("2026-11-02T10:00:00Z").plusSeconds(seconds), value);
    }

    @Test
    void theIncreaseOverTheTimeBetweenTheFirstAndTheLastReading() {
        // 600 tokens in 60 s, whatever the order the readings come in
        assertEquals(10.0, TokenRate.perSecond(List.of(at(60, 1600), at(0, 1000), at(30, 1300))));
    }

    @Test
    void aCounterThatWentDownWasRestartedAndItsNewValueIsNew() {
        // 1000 -> 1500 (+500), restart -> 200 (+200), -> 500 (+300): 1000 tokens in 100 s
        assertEquals(10.0, TokenRate.perSecond(List.of(at(0, 1000), at(40, 1500), at(60, 200), at(100, 500))));
    }

    @Test
    void theIncreaseIsTheTokensGeneratedFromTheFirstReadingToTheLast() {
        // as above: +500, a restart counting 200 whole, +300
        assertEquals(1000.0, TokenRate.increase(List.of(at(60, 200), at(0, 1000), at(100, 500), at(40, 1500))));
        assertNull(TokenRate.increase(List.of(at(0, 1000))));
    }

    @Test
    void oneReadingOrOneInstantIsNoRate() {
        assertNull(TokenRate.perSecond(List.of(at(0, 1000))));
        assertNull(TokenRate.perSecond(List.of(at(0, 1000), at(0, 1000))));
        assertNull(TokenRate.perSecond(List.of()));
    }
}
