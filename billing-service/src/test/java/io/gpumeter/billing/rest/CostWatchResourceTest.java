package io.gpumeter.billing.rest;

import io.gpumeter.common.testing.Contract;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

/** The two feeds alert-service reads: every budget's forecast, and the latest day's cost anomalies. */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(LedgerStandIn.class)
class CostWatchResourceTest {

    private static final String BUDGETS = "/api/v1/budgets";

    @AfterEach
    void removeBudgets() {
        List<String> tenants = given().get(BUDGETS).then().statusCode(200).extract().jsonPath().getList("tenant");
        tenants.forEach(t -> given().delete(BUDGETS + "/" + t).then().statusCode(204));
    }

    @Test
    void everyBudgetIsForecastFromOneReadingOfTheMonth() {
        given().contentType(ContentType.JSON).body("{\"monthlyAmount\":600.00}").put(BUDGETS + "/acme").then().statusCode(201);
        given().contentType(ContentType.JSON).body("{\"monthlyAmount\":100.00}").put(BUDGETS + "/beta").then().statusCode(201);
        given().contentType(ContentType.JSON).body("{\"monthlyAmount\":5.00}").put(BUDGETS + "/idle").then().statusCode(201);
        /*
         * 1-11 March 2026 (10 of 31 days): acme 50 h H100 x 4.10 = 205.00 -> 205.00 x 31 / 10 = 635.50, 35.50 over
         * 600.00; beta 5 h x 4.10 = 20.50 -> 63.55, under 100.00; idle spent nothing: 0.00, under 5.00.
         */
        String example = given().queryParam("at", "2026-03-11T00:00:00Z").get("/api/v1/budget-forecasts").then().statusCode(200)
                .body("tenant", equalTo(List.of("acme", "beta", "idle")))
                .body("month", equalTo(List.of("2026-03", "2026-03", "2026-03")))
                .body("spentToDate", equalTo(List.of(205.0f, 20.5f, 0.0f)))
                .body("forecast", equalTo(List.of(635.5f, 63.55f, 0.0f)))
                .body("overrun", equalTo(List.of(true, false, false)))
                .body("overrunAmount", equalTo(List.of(35.5f, 0.0f, 0.0f)))
                .body("elapsedFraction", equalTo(List.of(0.322581f, 0.322581f, 0.322581f))).extract().asString();
        // alert-service's budget rule reads the forecasts from this answer
        Contract.record("billing", "budget-forecasts", example);
    }

    @Test
    void withoutBudgetsThereIsNothingToForecast() {
        given().queryParam("at", "2026-03-11T00:00:00Z").get("/api/v1/budget-forecasts").then().statusCode(200)
                .body("size()", equalTo(0));
    }

    @Test
    void aDayFarAboveTheTenantsTrailingNormIsAnAnomaly() {
        /*
         * 15 November 2026 against 1-14 November, 3 sample standard deviations, at least 50.00:
         * - acme: 20 h x 4.10 = 82.00. Trailing 41.00 and 49.20 alternately: mean 45.10, deviations +-4.10,
         *   variance 14 x 16.81 / 13 = 18.103077, sd 4.254771 -> 4.25; threshold 45.10 + 3 x 4.254771 = 57.864313
         *   -> 57.86; 82.00 above it and above 50.00: anomalous.
         * - beta: 12 h L40S x 1.10 = 13.20 over a zero norm, but under 50.00: not anomalous.
         * - delta: new, 30 h x 4.10 = 123.00 over a zero norm: anomalous.
         * - gamma: 61.50 every day, sd 0, threshold 61.50; 61.50 is not above it.
         */
        String example = given().queryParam("at", "2026-11-16T08:00:00Z").get("/api/v1/cost-anomalies").then().statusCode(200)
                .body("day", equalTo("2026-11-15"))
                .body("from", equalTo("2026-11-15T00:00Z"))
                .body("currency", equalTo("USD"))
                .body("trailingDays", equalTo(14))
                .body("minimumCost", equalTo(50.0f))
                .body("tenants.tenant", equalTo(List.of("acme", "beta", "delta", "gamma")))
                .body("tenants.cost", equalTo(List.of(82.0f, 13.2f, 123.0f, 61.5f)))
                .body("tenants.trailingMean", equalTo(List.of(45.1f, 0.0f, 0.0f, 61.5f)))
                .body("tenants.trailingStdDev", equalTo(List.of(4.25f, 0.0f, 0.0f, 0.0f)))
                .body("tenants.threshold", equalTo(List.of(57.86f, 0.0f, 0.0f, 61.5f)))
                .body("tenants.anomalous", equalTo(List.of(true, false, true, false))).extract().asString();
        // alert-service's cost rule reads the day's judgements from this answer
        Contract.record("billing", "cost-anomalies", example);
        given().queryParam("day", "2026-11-15").get("/api/v1/cost-anomalies").then().statusCode(200)
                .body("tenants.findAll { it.anomalous }.tenant", equalTo(List.of("acme", "delta")));
    }

    @ParameterizedTest(name = "{0}: {1} {2}")
    @CsvSource(delimiter = '|', value = {
            "day   | /api/v1/cost-anomalies?day=2026-11-5",
            "day   | /api/v1/cost-anomalies?day=2026-11-15&at=2026-11-16T00:00:00Z",
            "at    | /api/v1/cost-anomalies?at=yesterday",
            "month | /api/v1/budget-forecasts?month=2026-13",
            "at    | /api/v1/budget-forecasts?at=2026-03",
    })
    void aBadQueryIsAProblemNamingTheField(String field, String url) {
        given().urlEncodingEnabled(false).get(url).then().statusCode(400)
                .contentType("application/problem+json")
                .body("field", equalTo(field));
    }
}
