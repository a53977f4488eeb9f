package io.gpumeter.console;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static io.gpumeter.console.PagesTest.option;
import static io.gpumeter.console.PagesTest.page;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Jitter page draws the host's and the card's pressures slo-service puts beside the neighbours, each curve on the
 * event's axis as slo-service shapes it, ranks them among the suspects, and says which it could not measure. Event 42
 * as slo-service answers it when its service's own CPU was throttled and nothing shared its card.
 */
@QuarkusTest
@QuarkusTestResource(value = StandInResource.class, restrictToAnnotatedClass = false)
class JitterPressuresPageTest {

    private static final String EVENT = """
            {"id":42,"slo":"chat-ttft","service":"llm","namespace":"acme-serve","sli":"TTFT","start":"2026-11-30T10:20:00Z",
             "end":"2026-11-30T10:26:00Z","badMinutes":6,"peakP99Ms":1840.5,"thresholdMs":500,"factor":2,"limitMs":1000,
             "curveFrom":"2026-11-30T10:10:00Z","curveTo":"2026-11-30T10:36:00Z",
             "pods":[{"namespace":"acme-serve","pod":"llm-0","gpus":[{"gpuUuid":"GPU-aaaa-0001","node":"gpu-a","unitKind":"WHOLE",
                      "fraction":1,"since":"2026-11-29T00:00:00Z"}]}],
             "neighbours":[],
             "latency":[{"minute":"2026-11-30T10:20:00Z","count":280,"p50Ms":240,"p95Ms":1200,"p99Ms":1840.5}],
             "kvCacheUsage":[],
             "pressures":[
              {"key":"cpu-throttling:acme-serve/llm-0","kind":"cpu-throttling","cause":"cpu-saturated","subject":"acme-serve/llm-0",
               "cluster":"lab","node":"gpu-a","curves":{"CFS_THROTTLED_RATIO":{"scope":"CONTAINER","points":[
                 {"minute":"2026-11-30T10:10:00Z","mean":0.02,"max":0.02},{"minute":"2026-11-30T10:18:00Z","mean":0.6,"max":0.6}]}}},
              {"key":"node-io-pressure:gpu-a","kind":"node-io-pressure","cause":"io-wait","subject":"gpu-a","cluster":"lab",
               "node":"gpu-a","curves":{"IO_PRESSURE":{"scope":"NODE","points":[{"minute":"2026-11-30T10:10:00Z","mean":0.01,"max":0.01}]}}}],
             "unmeasured":[{"kind":"card-clocks","cause":"power-or-thermal","subject":"GPU-aaaa-0001",
               "missing":"no clocks-event reasons of power or heat in its usage series"}],
             "suspects":[
              {"rank":1,"key":"cpu-throttling:acme-serve/llm-0","kind":"cpu-throttling","cause":"cpu-saturated","score":0.58,
               "arrival":0,"arrivedMinutesBefore":null,"ramp":0.58,
               "rises":[{"field":"CFS_THROTTLED_RATIO","before":0.02,"recent":0.6,"rise":0.58}],
               "reasons":["the service's own host, no arrival (arrival 0)","CFS_THROTTLED_RATIO rose from 0.020 to 0.600"]},
              {"rank":2,"key":"node-io-pressure:gpu-a","kind":"node-io-pressure","cause":"io-wait","score":0,"arrival":0,
               "arrivedMinutesBefore":null,"ramp":0,"rises":[],"reasons":[]}],
             "gaps":[],"detectedAt":"2026-11-30T10:30:00Z","updatedAt":"2026-11-30T10:30:00Z"}""";

    @BeforeEach
    void reset() {
        StandIn.reset();
    }

    @Test
    void theHostAndTheCardAreDrawnOnTheEventsAxisRankedAmongTheSuspectsAndWhatWasNotMeasuredIsSaid() {
        StandIn.override(Backend.SLO, "/api/v1/jitter-events/42", StandIn.Reply.json(EVENT));
        String html = page("/jitter?window=24h&to=2026-11-30T12:00:00Z&event=42", Fixtures.ADMIN);
        String pressures = option(html, "jitter-pressures");
        // each curve in percent on the event's axis, the event shaded
        assertTrue(pressures.contains("\"name\":\"cpu-throttling:acme-serve/llm-0 CFS_THROTTLED_RATIO\""), pressures);
        assertTrue(pressures.contains("[\"2026-11-30T10:18:00Z\",60.0]"), pressures);
        assertTrue(pressures.contains("\"name\":\"node-io-pressure:gpu-a IO_PRESSURE\""), pressures);
        assertTrue(pressures.contains("\"min\":\"2026-11-30T10:10:00Z\",\"max\":\"2026-11-30T10:36:00Z\""), pressures);
        assertTrue(pressures.contains("{\"xAxis\":\"2026-11-30T10:20:00Z\"},{\"xAxis\":\"2026-11-30T10:26:00Z\"}"), pressures);
        assertTrue(html.contains("<tr><td class=\"num\">1</td><td>cpu-throttling:acme-serve/llm-0</td><td class=\"num\">0.58</td>"), html);
        assertTrue(html.contains("Missing from the evidence: the card-clocks of GPU-aaaa-0001 (so power-or-thermal cannot be"
                + " ruled out): no clocks-event reasons of power or heat in its usage series"), html);
        // no neighbour: no arrivals or neighbour activity to draw
        assertFalse(html.contains("id=\"jitter-arrivals-option\""), html);
    }
}
