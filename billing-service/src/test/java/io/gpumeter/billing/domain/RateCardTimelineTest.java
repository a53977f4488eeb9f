package io.gpumeter.billing.domain;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

class RateCardTimelineTest {

    private static final RateCard BASE = card("base");
    private static final RateCard MARCH_16 = card("m16");
    private static final RateCard APRIL = card("apr");
    private static final Instant MARCH = Instant.parse("2026-03-01T00:00:00Z");
    private static final Instant MID = Instant.parse("2026-03-16T00:00:00Z");
    private static final Instant APRIL_1 = Instant.parse("2026-04-01T00:00:00Z");

    private static RateCard card(String version) {
        return new RateCard(version, BigDecimal.ONE, Map.of());
    }

    // Given out of order on purpose.
    private final RateCardTimeline timeline = new RateCardTimeline(BASE, List.of(
            new RateCardTimeline.Dated(APRIL_1, APRIL), new RateCardTimeline.Dated(MID, MARCH_16)));

    @Test
    void aMonthWithAChangeInsideIsTwoStretches() {
        assertEquals(List.of(new RateCardTimeline.Stretch(MARCH, MID, BASE),
                        new RateCardTimeline.Stretch(MID, APRIL_1, MARCH_16)),
                timeline.split(MARCH, APRIL_1));
    }

    @Test
    void aChangeOnTheBoundaryDoesNotCut() {
        Instant may = Instant.parse("2026-05-01T00:00:00Z");
        assertEquals(List.of(new RateCardTimeline.Stretch(APRIL_1, may, APRIL)), timeline.split(APRIL_1, may));
        Instant feb = Instant.parse("2026-02-01T00:00:00Z");
        assertEquals(List.of(new RateCardTimeline.Stretch(feb, MARCH, BASE)), timeline.split(feb, MARCH));
    }

    @Test
    void theCardInForceAtAnInstant() {
        assertSame(BASE, timeline.at(MID.minusNanos(1)));
        assertSame(MARCH_16, timeline.at(MID));
        assertSame(APRIL, timeline.at(Instant.parse("2030-01-01T00:00:00Z")));
        assertSame(BASE, new RateCardTimeline(BASE, List.of()).at(MID));
    }

    @Test
    void twoCardsAtOneInstantAndEmptyPeriodsAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> new RateCardTimeline(BASE, List.of(
                new RateCardTimeline.Dated(MID, MARCH_16), new RateCardTimeline.Dated(MID, APRIL))));
        assertThrows(IllegalArgumentException.class, () -> timeline.split(MID, MID));
    }
}
