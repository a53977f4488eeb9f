package io.gpumeter.collector.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.collector.service.LatencyPulls;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A configured vLLM server scraped twice, its requests delivered to a stand-in slo-service as NDJSON. */
@QuarkusTest
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@WithTestResource(SloStandIn.class)
class LatencyPullsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant T1 = Instant.parse("2026-07-01T10:00:00Z");
    private static final Instant T2 = Instant.parse("2026-07-01T10:00:30Z");
    private static final Instant T3 = Instant.parse("2026-07-01T10:01:00Z");

    @Inject
    LatencyPulls pulls;

    @BeforeEach
    void reset() {
        SloStandIn.reset();
        // a scrape of an empty exposition: every series is new on the next scrape, so only a baseline
        SloStandIn.metrics("");
        pulls.scrape(Instant.EPOCH);
    }

    private static String scrape(String name) {
        return VllmScrapes.scrape(name);
    }

    private static List<JsonNode> lines(String body) {
        return body.lines().filter(l -> !l.isBlank()).map(l -> {
            try {
                return JSON.readTree(l);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }).toList();
    }

    private static String line(Instant ts, String ttft, String itl, String e2e) {
        return "{\"service\":\"chat-8b\",\"namespace\":\"ml\",\"pod\":\"chat-0\",\"ts\":\"" + ts + "\""
                + (ttft == null ? "" : ",\"ttftMs\":" + ttft) + (itl == null ? "" : ",\"itlMs\":" + itl)
                + (e2e == null ? "" : ",\"e2eMs\":" + e2e) + ",\"ok\":true}";
    }

    private static String gaugeLine(Instant ts, String kv, String hitRate) {
        return "{\"service\":\"chat-8b\",\"namespace\":\"ml\",\"pod\":\"chat-0\",\"ts\":\"" + ts + "\""
                + (kv == null ? "" : ",\"kvCacheUsage\":" + kv)
                + (hitRate == null ? "" : ",\"prefixCacheHitRate\":" + hitRate) + "}";
    }

    /** The five requests between scrape 1 and 2, worked out by hand in SyntheticRequestsTest. */
    private static List<JsonNode> expected(Instant ts) throws IOException {
        return List.of(JSON.readTree(line(ts, "40.0", "25.0", "1000.0")), JSON.readTree(line(ts, "40.0", "25.0", "1500.0")),
                JSON.readTree(line(ts, "80.0", "25.0", "1500.0")), JSON.readTree(line(ts, "100.0", "50.0", "5000.0")),
                JSON.readTree(line(ts, "2560000.0", "75.0", null)));
    }

    @Test
    void theSecondScrapeDeliversTheRequestsBetweenTheTwo() throws IOException {
        SloStandIn.metrics(scrape("vllm-scrape-1.prom"));
        assertEquals(new LatencyPulls.Round(1, 1, 0, 1), pulls.scrape(T1));
        assertTrue(SloStandIn.records().isEmpty(), "a first scrape of the series sends no requests");

        SloStandIn.metrics(scrape("vllm-scrape-2.prom"));
        assertEquals(new LatencyPulls.Round(1, 1, 5, 1), pulls.scrape(T2));
        assertEquals(1, SloStandIn.records().size());
        assertEquals("application/x-ndjson", SloStandIn.taken(SloStandIn.LATENCY).get(0).getHeader("Content-Type"));
        assertEquals(expected(T2), lines(SloStandIn.records().get(0)));

        SloStandIn.metrics(scrape("vllm-scrape-restarted.prom"));
        pulls.scrape(T3);
        assertEquals(List.of(JSON.readTree(line(T3, "40.0", "25.0", "1000.0")), JSON.readTree(line(T3, "60.0", "25.0", null))),
                lines(SloStandIn.records().get(1)), "after a restart the new counts are all new");
    }

    /**
     * KV-cache usage is sent from the first scrape; the prefix-cache hit rate needs two. Scrape 1 to 2: queries
     * 51200 to 60416, hits 20480 to 24576, so 4096 / 9216 = 4/9. The restarted server counts 512 queries and no hits,
     * below scrape 2's counts: all new, so 0 / 512 = 0.
     */
    @Test
    void eachScrapeSendsThePodsCacheGauges() throws IOException {
        SloStandIn.metrics(scrape("vllm-scrape-1.prom"));
        pulls.scrape(T1);
        SloStandIn.metrics(scrape("vllm-scrape-2.prom"));
        pulls.scrape(T2);
        SloStandIn.metrics(scrape("vllm-scrape-restarted.prom"));
        assertEquals(new LatencyPulls.Round(1, 1, 2, 1), pulls.scrape(T3));

        assertEquals(3, SloStandIn.gauges().size());
        assertEquals(List.of(JSON.readTree(gaugeLine(T1, "0.31", null))), lines(SloStandIn.gauges().get(0)));
        assertEquals(List.of(JSON.readTree(gaugeLine(T2, "0.27", "0.4444444444444444"))),
                lines(SloStandIn.gauges().get(1)));
        assertEquals(4.0 / 9, lines(SloStandIn.gauges().get(1)).get(0).get("prefixCacheHitRate").doubleValue());
        assertEquals(List.of(JSON.readTree(gaugeLine(T3, "0.02", "0.0"))), lines(SloStandIn.gauges().get(2)),
                "counters below the last scrape's are a restart");
    }

    @Test
    @Order(Integer.MAX_VALUE) // failed deliveries count against the breaker; nothing after this test should see them
    void recordsSloServiceDidNotTakeGoWithTheNextRound() throws IOException {
        SloStandIn.metrics(scrape("vllm-scrape-1.prom"));
        pulls.scrape(T1);
        SloStandIn.metrics(scrape("vllm-scrape-2.prom"));
        SloStandIn.refuse(503);
        assertEquals(new LatencyPulls.Round(1, 1, 0, 0), pulls.scrape(T2));
        assertTrue(SloStandIn.records().isEmpty());

        SloStandIn.answerAgain();
        assertEquals(new LatencyPulls.Round(1, 1, 5, 1), pulls.scrape(T3));
        assertEquals(expected(T3), lines(SloStandIn.records().get(0)), "the same five requests, stamped with this round");
        // the gauges of the failed round are gone, but the hit rate still counts from scrape 1: 4096 / 9216
        assertEquals(List.of(JSON.readTree(gaugeLine(T3, "0.27", "0.4444444444444444"))),
                lines(SloStandIn.gauges().get(1)));
    }

    @Test
    void recordsSloServiceRefusesAreNotSentAgain() throws IOException {
        SloStandIn.metrics(scrape("vllm-scrape-1.prom"));
        pulls.scrape(T1);
        SloStandIn.metrics(scrape("vllm-scrape-2.prom"));
        SloStandIn.refuse(400);
        assertEquals(new LatencyPulls.Round(1, 1, 0, 0), pulls.scrape(T2));
        SloStandIn.answerAgain();
        assertEquals(new LatencyPulls.Round(1, 1, 0, 1), pulls.scrape(T3), "scrape 2 is the baseline now");
        assertTrue(SloStandIn.records().isEmpty());
        assertEquals(List.of(JSON.readTree(gaugeLine(T3, "0.27", null))), lines(SloStandIn.gauges().get(1)),
                "no prefix-cache queries since scrape 2, so no hit rate");
    }

    @Test
    void anUnparsableScrapeKeepsTheBaseline() throws IOException {
        SloStandIn.metrics(scrape("vllm-scrape-1.prom"));
        pulls.scrape(T1);
        SloStandIn.metrics("vllm:time_to_first_token_seconds_bucket{le=\"0.1\" 3\n");
        assertEquals(new LatencyPulls.Round(1, 0, 0, 0), pulls.scrape(T2));
        SloStandIn.metrics(scrape("vllm-scrape-2.prom"));
        pulls.scrape(T3);
        assertEquals(expected(T3), lines(SloStandIn.records().get(0)));
    }
}
