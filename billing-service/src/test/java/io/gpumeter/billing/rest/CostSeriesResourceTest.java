package io.gpumeter.billing.rest;

import io.gpumeter.common.testing.Contract;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * March 2026's cost per day and per week from the fake ledger's hours per tenant, model and UTC day
 * (LedgerAnswers.SERIES_BY_DAY), priced by the test rate card (H100 4.10, L40S 1.10), worked out by hand:
 * <pre>
 * 1 March, acme: 10 h H100 (4 used) + 2.5 h L40S (none used) = 12.5 h; 41.00 + 2.75 = 43.75; used 4 h, 16.40;
 *   idle 8.5 h, 43.75 - 16.40 = 27.35.   beta: 1 h H100 all used, 4.10; idle 0.
 * 2 March, acme: 0.125 h H100 all used: 0.5125 -> 0.51 (half-even).
 * 9 March, acme: 3 h H100, 1 used: 12.30; used 4.10; idle 2 h, 8.20.
 * </pre>
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(LedgerStandIn.class)
class CostSeriesResourceTest {

    private static final String SERIES = "/api/v1/reports/series";

    @Test
    void eachDaysHoursArePricedByTheRateCardOfTheirModel() {
        String series = given().queryParam("month", "2026-03").get(SERIES).then().statusCode(200)
                .body("month", equalTo("2026-03")).body("bucket", equalTo("day")).body("groupBy", equalTo("tenant"))
                .body("timeZone", equalTo("UTC")).body("currency", equalTo("USD"))
                .body("buckets.size()", equalTo(31))
                .body("buckets[0].label", equalTo("2026-03-01"))
                .body("buckets[0].start", equalTo("2026-03-01T00:00:00Z"))
                .body("buckets[0].end", equalTo("2026-03-02T00:00:00Z"))
                .body("buckets[30].end", equalTo("2026-04-01T00:00:00Z"))
                .body("lines.size()", equalTo(4))
                .body("lines[0].bucket", equalTo("2026-03-01")).body("lines[0].group", equalTo("acme"))
                .body("lines[0].tenant", equalTo("acme"))
                .body("lines[0].allocatedGpuHours", equalTo(12.5f)).body("lines[0].usedGpuHours", equalTo(4.0f))
                .body("lines[0].idleGpuHours", equalTo(8.5f)).body("lines[0].allocatedCost", equalTo(43.75f))
                .body("lines[0].usedCost", equalTo(16.4f)).body("lines[0].idleCost", equalTo(27.35f))
                .body("lines[0].rateCardVersion", equalTo("test-7"))
                // 7.5 kWh on the H100 and 0.75 on the L40S; the test card prices no energy.
                .body("lines[0].energyKWh", equalTo(8.25f)).body("lines[0].energyCost", nullValue())
                .body("lines[0].co2eKg", nullValue()).body("lines[1].energyKWh", equalTo(0.0f))
                .body("lines[1].group", equalTo("beta")).body("lines[1].allocatedCost", equalTo(4.1f))
                .body("lines[1].idleCost", equalTo(0.0f))
                .body("lines[2].bucket", equalTo("2026-03-02")).body("lines[2].allocatedCost", equalTo(0.51f))
                .body("lines[3].bucket", equalTo("2026-03-09")).body("lines[3].allocatedCost", equalTo(12.3f))
                .body("lines[3].usedCost", equalTo(4.1f)).body("lines[3].idleCost", equalTo(8.2f))
                .body("lines[3].idleGpuHours", equalTo(2.0f)).extract().asString();
        Contract.record("billing", "cost-series", series); // the console's Hours and Budgets pages draw it
    }

    @Test
    void aDaysEnergyIsPricedWithTheCardInForceThatDay() {
        // From 1 March energy costs 0.30 per kWh and emits 250 g: acme's 8.25 kWh on the 1st cost 2.475 -> 2.48
        // (half-even: 2.475 is a tie, 8 is even) and emit 2062.5 g -> 2.062 kg (a tie; 2 is even).
        given().contentType("application/json").body("""
                {"version":"series-energy","effectiveFrom":"2026-03-01T00:00:00Z","defaultRate":1.50,
                 "models":{"NVIDIA-H100-80GB-HBM3":4.10,"NVIDIA L40S":1.10},"energyPricePerKWh":0.30,"gramsCo2ePerKWh":250}""")
                .post("/api/v1/rate-cards").then().statusCode(201);
        try {
            given().queryParam("month", "2026-03").get(SERIES).then().statusCode(200)
                    .body("lines[0].energyKWh", equalTo(8.25f)).body("lines[0].energyCost", equalTo(2.48f))
                    .body("lines[0].co2eKg", equalTo(2.062f)).body("lines[0].allocatedCost", equalTo(43.75f))
                    .body("lines[1].energyCost", equalTo(0.0f)).body("lines[1].co2eKg", equalTo(0.0f));
        } finally {
            given().delete("/api/v1/rate-cards/series-energy").then().statusCode(204);
        }
    }

    @Test
    void aMonthOfTwoCardsIsReadOncePerCardAndEachDayPricedByItsOwn() {
        // From 5 March an H100 hour costs 5.00: the 9th's 3 h cost 15.00, its 1 used hour 5.00, its 2 idle hours
        // 10.00; the 1st and the 2nd keep test-7's prices (43.75, 4.10, 0.51).
        given().contentType("application/json").body("""
                {"version":"series-march-5","effectiveFrom":"2026-03-05T00:00:00Z","defaultRate":1.50,
                 "models":{"NVIDIA-H100-80GB-HBM3":5.00,"NVIDIA L40S":1.10}}""")
                .post("/api/v1/rate-cards").then().statusCode(201);
        try {
            int before = LedgerStandIn.calls(LedgerAnswers.MARCH_5);
            given().queryParam("month", "2026-03").get(SERIES).then().statusCode(200)
                    .body("lines.bucket", equalTo(List.of("2026-03-01", "2026-03-01", "2026-03-02", "2026-03-09")))
                    .body("lines.allocatedCost", equalTo(List.of(43.75f, 4.1f, 0.51f, 15.0f)))
                    .body("lines.rateCardVersion", equalTo(List.of("test-7", "test-7", "test-7", "series-march-5")))
                    .body("lines[3].usedCost", equalTo(5.0f)).body("lines[3].idleCost", equalTo(10.0f));
            assertEquals(before + 1, LedgerStandIn.calls(LedgerAnswers.MARCH_5));
        } finally {
            given().delete("/api/v1/rate-cards/series-march-5").then().statusCode(204);
        }
    }

    @Test
    void weeksStartOnMondayAndAreCutAtTheMonthsEdges() {
        // 1 March 2026 is a Sunday: W09 is that one day; W14 is 30 and 31 March.
        given().queryParam("month", "2026-03").queryParam("bucket", "week").get(SERIES).then().statusCode(200)
                .body("buckets.label", equalTo(List.of("2026-W09", "2026-W10", "2026-W11", "2026-W12", "2026-W13", "2026-W14")))
                .body("buckets[0].end", equalTo("2026-03-02T00:00:00Z"))
                .body("buckets[5].start", equalTo("2026-03-30T00:00:00Z"))
                .body("buckets[5].end", equalTo("2026-04-01T00:00:00Z"))
                .body("lines.bucket", equalTo(List.of("2026-W09", "2026-W09", "2026-W10", "2026-W11")))
                .body("lines[0].allocatedCost", equalTo(43.75f));
    }

    @Test
    void oneTenantSeesItsOwnLinesOnly() {
        given().queryParam("month", "2026-03").queryParam("tenant", "acme").get(SERIES).then().statusCode(200)
                .body("lines.group", equalTo(List.of("acme", "acme", "acme")))
                .body("lines.find { it.group == 'beta' }", nullValue());
    }

    @Test
    void anUnknownBucketIsRefusedNamingIt() {
        given().queryParam("month", "2026-03").queryParam("bucket", "hour").get(SERIES).then().statusCode(400)
                .body("field", equalTo("bucket")).body("detail", containsString("day"));
        given().queryParam("month", "2026-3").get(SERIES).then().statusCode(400).body("field", equalTo("month"));
    }
}
