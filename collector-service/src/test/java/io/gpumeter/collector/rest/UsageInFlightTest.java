package io.gpumeter.collector.rest;

import io.gpumeter.collector.testing.LedgerStandIn;
import io.gpumeter.common.testing.Management;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Usage batches go to the ledger up to {@code gpumeter.collector.delivery.usage-in-flight} at once (2 here): a
 * backlog of three batches keeps two requests open and no more, and batches the ledger did not take are sent again
 * until it does, each value reaching it once.
 */
@QuarkusTest
@WithTestResource(LedgerStandIn.class)
@TestProfile(UsageInFlightTest.TwoInFlight.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class UsageInFlightTest {

    public static class TwoInFlight implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            // Two values a batch: six cards' values make three batches, sealed together by one flush.
            return Map.of("gpumeter.collector.usage.flush-interval", "200ms", "gpumeter.collector.usage.batch-size", "2",
                    "gpumeter.collector.usage.buffer-capacity", "100", "gpumeter.collector.delivery.usage-in-flight", "2");
        }
    }

    @BeforeEach
    void reset() {
        LedgerStandIn.reset();
    }

    /** One scrape of these cards' SM_ACTIVE, each card's value its number / 100, at 2026-07-01T10:00:00Z. */
    static String scrape(int... cards) {
        StringBuilder page = new StringBuilder();
        for (int card : cards) {
            page.append("DCGM_FI_PROF_SM_ACTIVE{gpu=\"0\",UUID=\"GPU-").append(card).append("\"} ")
                    .append(card / 100.0).append(" 1782900000000\n");
        }
        return page.toString();
    }

    @Test
    @Order(1)
    void aBacklogOfThreeBatchesKeepsTwoRequestsOpenAndNoMore() {
        // Each answer takes 1 s: the three batches ready at once are sent two, then one.
        LedgerStandIn.usageAnsweredAfter(Duration.ofSeconds(1));
        given().contentType("text/plain").body(scrape(1, 2, 3, 4, 5, 6)).queryParam("node", "n1")
                .post("/api/v1/ingest/dcgm").then().statusCode(200).body("accepted", equalTo(6));

        List<String> cards = awaitCardsTaken(6);
        assertEquals(List.of("GPU-1", "GPU-2", "GPU-3", "GPU-4", "GPU-5", "GPU-6"), cards.stream().sorted().toList());
        assertEquals(3, LedgerStandIn.usage().size(), "three batches of two values");
        assertEquals(2, LedgerStandIn.mostOpen(), "two requests open at once, never three");
        awaitEmptyBuffer();
    }

    @Test
    @Order(2)
    void batchesTheLedgerDidNotTakeAreSentAgainAndEachValueArrivesOnce() {
        LedgerStandIn.refuse(503, LedgerStandIn.USAGE);
        given().contentType("text/plain").body(scrape(11, 12, 13, 14, 15, 16)).queryParam("node", "n1")
                .post("/api/v1/ingest/dcgm").then().statusCode(200).body("accepted", equalTo(6));
        await("deliveries to be tried and refused").atMost(Duration.ofSeconds(30))
                .until(() -> LedgerStandIn.calls(LedgerStandIn.USAGE).size() >= 2);
        assertTrue(LedgerStandIn.usage().isEmpty());
        assertTrue(LedgerStandIn.mostOpen() <= 2, "never more than two requests open");
        LedgerStandIn.answerAgain();

        List<String> cards = awaitCardsTaken(6);
        // Every card's value once, as scraped: a batch taken is not sent again, a refused one is not lost.
        assertEquals(IntStream.rangeClosed(11, 16).mapToObj(c -> "GPU-" + c).toList(), cards.stream().sorted().toList());
        List<String> values = LedgerStandIn.usage().stream().flatMap(b -> b.path("partials").valueStream())
                .map(p -> p.path("gpuUuid").asText() + "=" + p.path("values")).sorted().toList();
        assertEquals(List.of("GPU-11=[0.11]", "GPU-12=[0.12]", "GPU-13=[0.13]", "GPU-14=[0.14]", "GPU-15=[0.15]",
                "GPU-16=[0.16]"),
                values);
        awaitEmptyBuffer();
        assertTrue(LedgerStandIn.mostOpen() <= 2, "never more than two requests open");
    }

    /** The cards of every partial the ledger took, once the count reached {@code count}. */
    private static List<String> awaitCardsTaken(int count) {
        return await("usage to reach the ledger").atMost(Duration.ofSeconds(40))
                .until(() -> LedgerStandIn.usage().stream().flatMap(b -> b.path("partials").valueStream())
                        .map(p -> p.path("gpuUuid").asText()).toList(), cards -> cards.size() >= count);
    }

    private static void awaitEmptyBuffer() {
        await("the usage buffer to let go of what the ledger has").atMost(Duration.ofSeconds(10))
                .until(() -> Management.given().get("/q/metrics").then().statusCode(200).extract().asString()
                        .lines().filter(l -> l.startsWith("gpumeter_collector_buffer_usage")).toList(),
                        hasItem("gpumeter_collector_buffer_usage 0.0"));
    }
}
