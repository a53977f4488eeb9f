package io.gpumeter.collector.rest;

import io.gpumeter.collector.testing.LedgerStandIn;
import io.gpumeter.common.testing.Management;
import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.awaitility.Awaitility.await;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** Pushes answered from the buffer, delivered to the ledger as per-minute partials on the flush interval. */
@QuarkusTest
@WithTestResource(LedgerStandIn.class)
@TestProfile(BufferedUsageIngestTest.Buffered.class)
class BufferedUsageIngestTest {

    public static class Buffered implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            // An interval no test waits for: delivery starts when a batch's worth (4 values) is held.
            return Map.of("gpumeter.collector.usage.flush-interval", "1h", "gpumeter.collector.usage.buffer-capacity", "5",
                    "gpumeter.collector.usage.batch-size", "4");
        }
    }

    @BeforeEach
    void reset() {
        LedgerStandIn.reset();
    }

    static String scrape(long ms, double sm, double util) {
        return "DCGM_FI_PROF_SM_ACTIVE{gpu=\"0\",UUID=\"GPU-B\",pod=\"p\",namespace=\"ml\",container=\"c\"} " + sm + " " + ms + "\n"
                + "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"GPU-B\",pod=\"p\",namespace=\"ml\",container=\"c\"} " + util + " " + ms + "\n";
    }

    @Test
    void scrapesAreAnsweredAtOnceAndReachTheLedgerAsMinutePartials() throws InterruptedException {
        // 1782900000000 = 2026-07-01T10:00:00Z; scrapes at :00.000, :00.900 (the same second again) and :01.500.
        given().contentType("text/plain").body(scrape(1782900000000L, 0.25, 40)).queryParam("node", "n1")
                .post("/api/v1/ingest/dcgm").then().statusCode(200).body("buffered", equalTo(true))
                .body("samples", equalTo(2)).body("accepted", equalTo(2)).body("duplicates", equalTo(0));
        given().contentType("text/plain").body(scrape(1782900000900L, 0.5, 50)).queryParam("node", "n1")
                .post("/api/v1/ingest/dcgm").then().statusCode(200).body("accepted", equalTo(0)).body("duplicates", equalTo(2));
        assertTrue(LedgerStandIn.usage().isEmpty(), "nothing is sent before a batch's worth is held");
        given().contentType("text/plain").body(scrape(1782900001500L, 0.75, 60)).queryParam("node", "n1")
                .post("/api/v1/ingest/dcgm").then().statusCode(200).body("accepted", equalTo(2));

        List<JsonNode> partials = awaitPartials(2);
        assertTrue(LedgerStandIn.usage().stream()
                .allMatch(b -> b.path("samples").isEmpty() && b.path("values").isMissingNode()));
        JsonNode sm = partials.stream().filter(p -> p.path("field").asText().equals("SM_ACTIVE")).findFirst().orElseThrow();
        assertEquals("2026-07-01T10:00:00Z", sm.path("minute").asText());
        assertEquals("[0,1500]", sm.path("millis").toString());
        assertEquals("[0.25,0.75]", sm.path("values").toString());
        assertEquals("GPU-B", sm.path("gpuUuid").asText());
        assertEquals("DEVICE", sm.path("scope").asText());
        assertEquals("n1", sm.path("node").asText());
        assertEquals("ml", sm.path("namespace").asText());
        assertEquals("p", sm.path("pod").asText());
        assertEquals("c", sm.path("container").asText());
        JsonNode util = partials.stream().filter(p -> p.path("field").asText().equals("GPU_UTIL")).findFirst().orElseThrow();
        assertEquals("[0.4,0.6]", util.path("values").toString());
        // the buffer lets go of what it sent once the ledger's answer is read, a moment after the ledger has the batch
        awaitEmptyBuffer();
    }

    private static void awaitEmptyBuffer() {
        await("the usage buffer to let go of what the ledger has").atMost(Duration.ofSeconds(5))
                .until(() -> Management.given().get("/q/metrics").then().statusCode(200).extract().asString()
                        .lines().filter(l -> l.startsWith("gpumeter_collector_buffer_usage")).toList(),
                        hasItem("gpumeter_collector_buffer_usage 0.0"));
    }

    @Test
    void aBodyTheBufferCannotHoldIsA503AndKeepsNothingOfIt() {
        // Six samples; the buffer holds five.
        String body = scrape(1782900060000L, 0.25, 40) + scrape(1782900060000L, 0.5, 50).replace("GPU-B", "GPU-C")
                + scrape(1782900060000L, 0.75, 60).replace("GPU-B", "GPU-D");
        given().contentType("text/plain").body(body).queryParam("node", "n1")
                .post("/api/v1/ingest/dcgm").then().statusCode(503).contentType("application/problem+json")
                .body("detail", containsString("send it again"));
        Management.given().get("/q/metrics").then().statusCode(200).body(containsString("gpumeter_collector_buffer_usage 0.0"));
        assertTrue(LedgerStandIn.usage().isEmpty(), "nothing of the refused body reaches the ledger");
    }

    private static List<JsonNode> awaitPartials(int count) {
        return await("partials to reach the ledger").atMost(Duration.ofSeconds(20))
                .until(() -> LedgerStandIn.usage().stream().flatMap(b -> b.path("partials").valueStream()).toList(),
                        partials -> partials.size() >= count);
    }
}
