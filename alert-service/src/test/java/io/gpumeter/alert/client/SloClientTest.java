package io.gpumeter.alert.client;

import io.gpumeter.alert.client.SloRestClient.AlertView;
import io.gpumeter.alert.client.SloRestClient.BurnWindow;
import io.gpumeter.alert.client.SloRestClient.LatencyView;
import io.gpumeter.alert.client.SloRestClient.MinuteView;
import io.gpumeter.alert.client.SloRestClient.Objective;
import io.gpumeter.alert.client.SloRestClient.Percentiles;
import io.gpumeter.alert.client.SloRestClient.Selector;
import io.gpumeter.alert.client.SloRestClient.SloView;
import io.gpumeter.alert.client.SloRestClient.StatusView;
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

    static AlertView alert(String severity, double factor, double longRate, double shortRate, boolean firing) {
        return new AlertView(severity, factor, new BurnWindow("PT1H", longRate), new BurnWindow("PT5M", shortRate), firing);
    }

    @Test
    void aFiringBurnAtThePageRateIsAFastBurn() {
        SloState s = SloClient.state(CHAT, new StatusView("PAGE", List.of(alert("TICKET", 1.0, 2.0, 2.0, true),
                alert("PAGE", 14.4, 16.0, 20.0, true))), null);
        assertTrue(s.fastBurn());
        assertEquals(16.0, s.burnRate());
        assertEquals("chat", s.service());
        assertEquals("acme", s.tenant());
        assertEquals(300.0, s.thresholdMs());
        assertFalse(SloClient.state(CHAT, new StatusView("OK", List.of(alert("PAGE", 14.4, 16.0, 3.0, false))), null).fastBurn());
        assertFalse(SloClient.state(CHAT, new StatusView("PAGE", List.of(alert("PAGE", 6.0, 7.0, 7.0, true))), null).fastBurn());
    }

    @Test
    void aServiceSelectorKeepsItsNamespace() {
        SloView service = new SloView("chat-ttft", new Selector("chat", null, "b-ns"), "TTFT", new Objective(99.0, 300.0));
        SloState s = SloClient.state(service, new StatusView("OK", List.of()), null);
        assertEquals("chat", s.service());
        assertEquals("b-ns", s.namespace());
        assertEquals(null, s.tenant());
    }

    @Test
    void theLatencyCurveBecomesMinuteWindowsSortedAndIncompleteOnesDropped() {
        SloState s = SloClient.state(CHAT, null, new LatencyView(List.of(
                new MinuteView(T.plusSeconds(60), new Percentiles(400.0)),
                new MinuteView(T, new Percentiles(350.0)),
                new MinuteView(T.plusSeconds(120), new Percentiles(null)))));
        assertEquals(2, s.windows().size());
        assertEquals(T, s.windows().get(0).start());
        assertEquals(T.plusSeconds(60), s.windows().get(0).end());
        assertEquals(350.0, s.windows().get(0).p99Ms());
        assertFalse(SloClient.state(CHAT, null, null).fastBurn(), "an SLO without status yet never burns");
    }
}
