package io.gpumeter.billing.rest;

import io.gpumeter.common.testing.Management;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.util.Map;

import java.time.Duration;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.lessThan;
import static org.junit.jupiter.api.Assertions.assertEquals;

@QuarkusTest
@TestProfile(LedgerResilienceResourceTest.ShortTimeoutSmallBreaker.class)
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(LedgerStandIn.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class) // the breaker's state carries from one test to the next
class LedgerResilienceResourceTest {

    // %test-prefixed: a profiled name in application.properties outranks an unprefixed override. The client's
    // policy is class-level, so these settings are the class's (each method keeps its own breaker).
    private static final String LEDGER_CLIENT =
            "%test.quarkus.fault-tolerance.\"io.gpumeter.billing.client.LedgerClient\".";

    public static class ShortTimeoutSmallBreaker implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    LEDGER_CLIENT + "timeout.value", "300",
                    LEDGER_CLIENT + "timeout.unit", "millis",
                    LEDGER_CLIENT + "circuit-breaker.request-volume-threshold", "4",
                    LEDGER_CLIENT + "circuit-breaker.delay", "60000");
        }
    }

    @Test
    @Order(0)
    void healthSaysTheLedgerIsUpWhileEveryBreakerIsClosed() {
        Management.given().when().get("/q/health/ready").then().statusCode(200)
                .body("checks.find { it.name == 'ledger' }.status", equalTo("UP"))
                .body("checks.find { it.name == 'ledger' }.data.state", equalTo("up"))
                .body("checks.find { it.name == 'ledger' }.data.gpuHours", equalTo("closed"))
                .body("checks.find { it.name == 'ledger' }.data.capacity", equalTo("closed"))
                .body("checks.find { it.name == 'ledger' }.data.normalization", equalTo("closed"));
    }

    @Test
    @Order(1)
    void aLedgerSlowerThanTheTimeoutIsA503() throws InterruptedException {
        // Three attempts cut at 300 ms each; the fake ledger would take 20 s to answer even once.
        given().queryParam("month", "2030-04")
                .when().get("/api/v1/reports/monthly")
                .then().statusCode(503)
                .contentType("application/problem+json")
                .time(lessThan(10_000L));
        await().atMost(Duration.ofSeconds(2)).untilAsserted(() -> assertEquals("3",
                MonthlyReportResourceTest.ledgerCalls(LedgerAnswers.ANSWERS_LATE), "one call and two retries"));
    }

    @Test
    @Order(2)
    void repeatedFailuresOpenTheBreakerAndSpareTheLedger() {
        // Three timeouts so far; the fourth failure fills the window of four and opens the breaker.
        given().queryParam("month", "2030-01").when().get("/api/v1/reports/monthly").then().statusCode(503);
        assertEquals("1", MonthlyReportResourceTest.ledgerCalls(LedgerAnswers.ANSWERS_500),
                "the retries after the breaker opened never reached the ledger");

        given().queryParam("month", "2026-06")
                .when().get("/api/v1/reports/monthly")
                .then().statusCode(503)
                .contentType("application/problem+json")
                .body("status", equalTo(503));
        assertEquals("0", MonthlyReportResourceTest.ledgerCalls("2026-06-01T00:00:00Z"));
    }

    @Test
    @Order(3)
    void healthSaysDegradedWhileTheBreakerIsOpenAndBillingStaysReady() {
        // Billing still serves rate cards and budgets without the ledger: ready, with the ledger degraded.
        Management.given().when().get("/q/health/ready").then().statusCode(200)
                .body("checks.find { it.name == 'ledger' }.status", equalTo("UP"))
                .body("checks.find { it.name == 'ledger' }.data.state", equalTo("degraded"))
                .body("checks.find { it.name == 'ledger' }.data.gpuHours", equalTo("open"))
                .body("checks.find { it.name == 'ledger' }.data.normalization", equalTo("closed"));
    }

    /** The fake ledger counts a call when its handler starts, which may lag the client's timeout a little. */
}
