package io.gpumeter.collector.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import io.gpumeter.collector.service.UsagePulls;
import io.gpumeter.collector.testing.LedgerStandIn;
import io.gpumeter.common.testing.StandIn;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The collector's own pulls: a dcgm-exporter it scrapes, and a Prometheus it queries. */
@QuarkusTest
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@WithTestResource(LedgerStandIn.class)
@WithTestResource(UsagePullsTest.Exporters.class)
class UsagePullsTest {

    /** Serves one exporter scrape and one Prometheus range answer. */
    public static class Exporters implements QuarkusTestResourceLifecycleManager {
        static StandIn standIn;

        @Override
        public Map<String, String> start() {
            standIn = StandIn.start();
            standIn.answer(get(urlPathEqualTo("/metrics")), aResponse().withStatus(200).withBody("""
                    # TYPE DCGM_FI_PROF_SM_ACTIVE gauge
                    DCGM_FI_PROF_SM_ACTIVE{gpu="0",UUID="GPU-SCRAPED",Hostname="dcgm-exporter-x2k"} 0.5
                    """));
            standIn.answer(get(urlPathEqualTo("/api/v1/query_range")), """
                    {"status":"success","data":{"resultType":"matrix","result":[
                     {"metric":{"__name__":"DCGM_FI_DEV_GPU_UTIL","UUID":"GPU-PULLED","Hostname":"gpu-7","gpu":"0"},
                      "values":[[1782900000,"40"],[1782900015.5,"60"]]}]}}
                    """);
            String base = standIn.url();
            return Map.of("gpumeter.collector.dcgm.targets.gpu-3", base + "/metrics",
                    "gpumeter.collector.prometheus.url", base,
                    // The test drives each round itself; scheduled rounds would race it for the same samples.
                    "quarkus.scheduler.enabled", "false");
        }

        /** The query string of the last range query asked. */
        static String lastQuery() {
            List<LoggedRequest> asked = standIn.calls(getRequestedFor(urlPathEqualTo("/api/v1/query_range")));
            String url = asked.get(asked.size() - 1).getUrl();
            return url.substring(url.indexOf('?') + 1);
        }

        @Override
        public void stop() {
            standIn.close();
        }
    }

    @Inject
    UsagePulls pulls;

    @BeforeEach
    void reset() {
        LedgerStandIn.reset();
    }

    static List<JsonNode> samples() {
        return LedgerStandIn.usage().stream().flatMap(b -> b.path("samples").valueStream()).toList();
    }

    @Test
    void aConfiguredExporterIsScrapedUnderItsNodeName() {
        assertEquals(1, pulls.scrapeExporters());
        JsonNode sample = samples().get(0);
        assertEquals("GPU-SCRAPED", sample.path("gpuUuid").asText());
        assertEquals("gpu-3", sample.path("node").asText(), "the configured node name, not the exporter pod's Hostname");
        assertEquals(0.5, sample.path("value").asDouble(), 1e-12);
    }

    @Test
    void prometheusRangeQueriesKeepEachPointsTimestamp() {
        LedgerStandIn.usageReceipt(2);
        assertEquals(2, pulls.pullPrometheus(Instant.parse("2026-07-01T10:05:00Z")));
        List<JsonNode> samples = samples();
        assertEquals(List.of("2026-07-01T10:00:00Z", "2026-07-01T10:00:15.500Z"),
                samples.stream().map(s -> s.path("at").asText()).toList());
        assertEquals(0.4, samples.get(0).path("value").asDouble(), 1e-12);
        assertEquals("gpu-7", samples.get(0).path("node").asText());
        String query = Exporters.lastQuery();
        assertTrue(query.contains("start=1782900000") && query.contains("end=1782900300") && query.contains("step=15s"), query);
    }

    @Test
    @Order(Integer.MAX_VALUE) // a failing ledger opens the delivery breaker, which would fail the tests after it
    void aFailingLedgerLosesTheRoundButNotTheNextOne() throws InterruptedException {
        LedgerStandIn.refuse(500);
        assertEquals(0, pulls.scrapeExporters());
        LedgerStandIn.answerAgain();
        await("the breaker to close").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> assertEquals(1, pulls.scrapeExporters(),
                        "the round after the breaker closes again stores the scrape"));
    }
}
