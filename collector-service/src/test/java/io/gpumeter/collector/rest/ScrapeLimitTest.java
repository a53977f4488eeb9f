package io.gpumeter.collector.rest;

import io.gpumeter.collector.testing.LedgerStandIn;
import io.gpumeter.common.testing.Management;
import io.gpumeter.common.testing.StandIn;
import io.gpumeter.collector.service.UsagePulls;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An exporter and a Prometheus that answer without end: the collector refuses each answer once it passes the
 * configured size, without reading the rest, counts the refusal, and stays healthy.
 */
@QuarkusTest
@WithTestResource(LedgerStandIn.class)
@WithTestResource(ScrapeLimitTest.Endless.class)
class ScrapeLimitTest {

    static final long LIMIT = 64 * 1024;
    /** What each endless answer would send if it were read to its end. */
    static final long ENDLESS = 1L << 30;

    /** An exporter streaming a metrics page without end, a Prometheus declaring one of a GiB, on one stand-in. */
    public static class Endless implements QuarkusTestResourceLifecycleManager {
        static StandIn standIn;

        @Override
        public Map<String, String> start() {
            standIn = StandIn.start();
            // valid Prometheus text, chunked, for as long as the reader stays
            standIn.answer(get(urlPathEqualTo("/metrics")),
                    StandIn.endless("DCGM_FI_PROF_SM_ACTIVE{gpu=\"0\",UUID=\"GPU-ENDLESS\"} 0.5\n"));
            // Declared too large, then sent for as long as the reader stays: refused before a byte is read. Closing
            // right after the headers raced the client, which could see the connection end before it saw the length.
            standIn.answer(get(urlPathEqualTo("/api/v1/query_range")), StandIn.endless(" ", ENDLESS));
            String base = standIn.url();
            return Map.of("gpumeter.collector.dcgm.targets.gpu-endless", base + "/metrics",
                    "gpumeter.collector.dcgm.max-body", String.valueOf(LIMIT),
                    "gpumeter.collector.prometheus.url", base,
                    "gpumeter.collector.prometheus.max-body", String.valueOf(LIMIT),
                    "quarkus.scheduler.enabled", "false");
        }

        @Override
        public void stop() {
            standIn.close();
        }
    }

    @Inject
    UsagePulls pulls;

    @Inject
    MeterRegistry metrics;

    @Test
    void anEndlessExporterIsRefusedWithoutBeingReadToItsEnd() {
        LedgerStandIn.reset();
        assertEquals(0, pulls.scrapeExporters());
        // the stand-in writes on until it notices the hang-up: read the count once it no longer grows
        AtomicLong seen = new AtomicLong(-1);
        long written = await("the exporter to notice the hang-up").atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(200)).until(() -> {
                    long now = Endless.standIn.endlessBytesHandedOut();
                    return seen.getAndSet(now) == now ? now : null;
                }, java.util.Objects::nonNull);
        assertTrue(written < 64L * 1024 * 1024, "the exporter wrote " + written + " bytes of " + ENDLESS);
        assertEquals(0, LedgerStandIn.usage().size(), "nothing of a refused page is stored");
        assertEquals(1.0, refused("dcgm"));
        Management.given().get("/q/health/live").then().statusCode(200);
    }

    @Test
    void aPrometheusAnswerDeclaredTooLargeIsRefused() {
        assertEquals(0, pulls.pullPrometheus(Instant.parse("2026-07-01T10:05:00Z")));
        assertEquals(1.0, refused("prometheus"));
        Management.given().get("/q/health/live").then().statusCode(200);
    }

    private double refused(String source) {
        var counter = metrics.find("gpumeter.collector.scrape.refused").tag("source", source).counter();
        return counter == null ? 0 : counter.count();
    }
}
