package io.gpumeter.alert.client;

import io.gpumeter.alert.client.SloRestClient.BurnView;
import io.gpumeter.alert.client.SloRestClient.Objective;
import io.gpumeter.alert.client.SloRestClient.Selector;
import io.gpumeter.alert.client.SloRestClient.SloView;
import io.gpumeter.alert.client.SloRestClient.StatusView;
import io.gpumeter.alert.client.SloRestClient.WindowView;
import io.gpumeter.alert.domain.SloState;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How slo-service's answers become SLO states: only a firing page-rate condition is a fast burn. */
class SloClientTest {

    private static final SloView CHAT = new SloView("chat-ttft", new Selector("chat", "acme", "serve"), "TTFT",
            new Objective(99.0, 300.0));
    private static final Instant T = Instant.parse("2026-05-04T12:00:00Z");

    @Test
    void aFiringBurnAtThePageRateIsAFastBurn() {
        SloState s = SloClient.state(CHAT, new StatusView(List.of(
                new BurnView("ticket", 1.0, "P3D", "PT6H", 2.0, 2.0, true),
                new BurnView("page", 14.4, "PT1H", "PT5M", 16.0, 20.0, true)), List.of()));
        assertTrue(s.fastBurn());
        assertEquals(16.0, s.burnRate());
        assertEquals("chat", s.service());
        assertEquals("acme", s.tenant());
        assertEquals(300.0, s.thresholdMs());
        assertFalse(SloClient.state(CHAT, new StatusView(List.of(new BurnView("page", 14.4, "PT1H", "PT5M", 16.0, 3.0, false)),
                List.of())).fastBurn());
        assertFalse(SloClient.state(CHAT, new StatusView(List.of(new BurnView("page", 6.0, "PT6H", "PT30M", 7.0, 7.0, true)),
                List.of())).fastBurn());
    }

    @Test
    void windowsAreSortedAndIncompleteOnesDropped() {
        SloState s = SloClient.state(CHAT, new StatusView(null, List.of(
                new WindowView(T.plusSeconds(60), T.plusSeconds(120), 400.0),
                new WindowView(T, T.plusSeconds(60), 350.0),
                new WindowView(T.plusSeconds(120), null, 500.0))));
        assertEquals(2, s.windows().size());
        assertEquals(T, s.windows().get(0).start());
        assertFalse(SloClient.state(CHAT, null).fastBurn(), "an SLO without status yet never burns");
    }
}
