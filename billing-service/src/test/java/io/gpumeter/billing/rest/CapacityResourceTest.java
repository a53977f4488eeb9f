package io.gpumeter.billing.rest;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

/**
 * The capacity plan over a constructed week (FakeLedgerResource: 1-7 August 2026), with the test profile's margin
 * 0.1, target utilization 0.75 and h100-queue serving the H100.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(FakeLedgerResource.class)
class CapacityResourceTest {

    private static final String CAPACITY = "/api/v1/capacity";
    private static final String H100 = "models.find { it.model == 'NVIDIA-H100-80GB-HBM3' }";
    private static final String L40S = "models.find { it.model == 'NVIDIA L40S' }";

    @Test
    void aWeekOfGrowingDemandIsShortOfCardsAsWorkedOutByHand() {
        /*
         * H100: 240, 252, …, 312 GPU-hours on 1-7 August, exactly +12 a day (σ = 0). Fitted last day 312; growth
         * 12·7/312 = 0.269231 ≈ 27%/week. Horizon 7d: busiest day 14 August (day 13 of the line) = 240 + 12·13 = 396
         * GPU-hours, / (24 h × 0.75) = 22 cards needed. Supply 480 card-hours a day = 20 cards, less 10% = 18 usable:
         * short by 4. Busiest day so far 312 / 480 = 0.65 on 7 August.
         * h100-queue p95: 600, 2400, 1800, 3600, (none), 1900, 7200 s: over 1800 s on 4 of 7 days; 6 of 40 workloads
         * rejected = 0.15. l40s-queue (p95 9999 s) is not the H100's.
         * L40S: 48 GPU-hours every day: flat; 48 / 18 = 2.67 cards needed; 240 / 24 = 10 cards, 9 usable: 6.33 spare.
         */
        given().queryParam("horizon", "7d").queryParam("history", "7d").queryParam("at", FakeLedgerResource.PLAN_AT)
                .get(CAPACITY).then().statusCode(200)
                .body("asOf", equalTo("2026-08-08T10:00:00Z"))
                .body("historyFrom", equalTo("2026-08-01T00:00:00Z"))
                .body("historyTo", equalTo("2026-08-08T00:00:00Z"))
                .body("historyDays", equalTo(7))
                .body("horizonDays", equalTo(7))
                .body("method", containsString("least-squares linear trend"))
                .body("margin", equalTo(0.1f))
                .body("targetUtilization", equalTo(0.75f))
                // Sorted by the model's canonical key (nvidia-h100-…, nvidia-l40s); L40S's two spellings are one model.
                .body("models.model", equalTo(List.of("NVIDIA-H100-80GB-HBM3", "NVIDIA L40S")))
                .body(H100 + ".demand.days.size()", equalTo(7))
                .body(H100 + ".demand.days[6].allocatedGpuHours", equalTo(312.0f))
                .body(H100 + ".demand.days[6].capacityCardHours", equalTo(480.0f))
                .body(H100 + ".demand.slopePerDay", equalTo(12.0f))
                .body(H100 + ".demand.levelLastDay", equalTo(312.0f))
                .body(H100 + ".demand.growthPerWeek", equalTo(0.269231f))
                .body(H100 + ".demand.trendClear", equalTo(true))
                .body(H100 + ".demand.peakUtilization", equalTo(0.65f))
                .body(H100 + ".demand.peakDay", equalTo("2026-08-07"))
                .body(H100 + ".forecast.day", equalTo("2026-08-14"))
                .body(H100 + ".forecast.gpuHoursPerDay", equalTo(396.0f))
                .body(H100 + ".forecast.gpuHoursLow", equalTo(396.0f))
                .body(H100 + ".forecast.gpuHoursHigh", equalTo(396.0f))
                .body(H100 + ".forecast.cardsNeeded", equalTo(22.0f))
                .body(H100 + ".supply.cards", equalTo(20.0f))
                .body(H100 + ".supply.usableCards", equalTo(18.0f))
                .body(H100 + ".gap.cards", equalTo(-4.0f))
                .body(H100 + ".queue.scope", equalTo("mapped"))
                .body(H100 + ".queue.clusterQueues", equalTo(List.of("h100-queue")))
                .body(H100 + ".queue.daysOverLine", equalTo(4))
                .body(H100 + ".queue.days", equalTo(7))
                .body(H100 + ".queue.dailyP95Seconds[4].p95Seconds", nullValue())
                .body(H100 + ".queue.dailyP95Seconds[6].p95Seconds", equalTo(7200))
                .body(H100 + ".queue.workloads", equalTo(40))
                .body(H100 + ".queue.rejectionRate", equalTo(0.15f))
                .body(H100 + ".fragmentation.memory", equalTo(0.25f))
                .body(H100 + ".fragmentation.shapes[2].sizeGiB", equalTo(30))
                .body(H100 + ".fragmentation.shapes[2].ratio", equalTo(0.45f))
                .body(H100 + ".summary", equalTo("NVIDIA-H100-80GB-HBM3: demand grows ~27%/week; "
                        + "queue p95 over 30 min on 4 of 7 days; short by ~4 cards for the next 7 days"))
                .body(L40S + ".demand.trendClear", equalTo(false))
                .body(L40S + ".demand.peakUtilization", equalTo(0.2f))
                .body(L40S + ".forecast.cardsNeeded", equalTo(2.67f))
                .body(L40S + ".supply.usableCards", equalTo(9.0f))
                .body(L40S + ".gap.cards", equalTo(6.33f))
                .body(L40S + ".queue", nullValue())
                .body(L40S + ".fragmentation", nullValue())
                .body(L40S + ".summary", equalTo("NVIDIA L40S: demand flat; surplus of ~6 cards over the next 7 days"));
    }

    @Test
    void theHistoryIsReadOnceForAllItsDaysNotDayByDay() {
        given().queryParam("horizon", "7d").queryParam("history", "7d").queryParam("at", FakeLedgerResource.PLAN_AT)
                .get(CAPACITY).then().statusCode(200);
        String ledger = ConfigProvider.getConfig().getValue("quarkus.rest-client.ledger.url", String.class);
        for (String day : List.of("2026-08-02T00:00:00Z", "2026-08-05T00:00:00Z", "2026-08-07T00:00:00Z")) {
            assertEquals("0", given().queryParam("from", day).get(ledger + "/calls").then().statusCode(200).extract().asString(),
                    "no gpu-hours read of the single day from " + day);
        }
    }

    @Test
    void aLongerHorizonLooksFurtherUpTheLine() {
        // Day 36 of the line: 240 + 12·36 = 672 GPU-hours = 37.33 cards; 18 usable: short by 19.33.
        given().queryParam("horizon", "30d").queryParam("history", "7d").queryParam("at", FakeLedgerResource.PLAN_AT)
                .get(CAPACITY).then().statusCode(200)
                .body(H100 + ".forecast.day", equalTo("2026-09-06"))
                .body(H100 + ".forecast.gpuHoursPerDay", equalTo(672.0f))
                .body(H100 + ".gap.cards", equalTo(-19.33f))
                .body(H100 + ".summary", containsString("short by ~19 cards for the next 30 days"));
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource({
            "horizon, 2w",
            "horizon, 0d",
            "horizon, 91d",
            "horizon, 30",
            "history, 3d",
            "history, 183d",
            "at,      yesterday",
    })
    void aBadParameterIsAProblemNamingIt(String field, String value) {
        Map<String, String> params = new HashMap<>(Map.of("horizon", "7d", "history", "7d", "at", FakeLedgerResource.PLAN_AT));
        params.put(field, value);
        given().queryParams(params).get(CAPACITY).then().statusCode(400)
                .contentType("application/problem+json")
                .body("field", equalTo(field))
                .body("detail", containsString(field));
    }

    @Test
    void aFailingLedgerIsA503() {
        // The week's one read begins on 1 January 2031, where the fake ledger answers 500.
        given().queryParam("horizon", "7d").queryParam("history", "7d").queryParam("at", "2031-01-08T00:00:00Z")
                .get(CAPACITY).then().statusCode(503)
                .contentType("application/problem+json");
    }
}
