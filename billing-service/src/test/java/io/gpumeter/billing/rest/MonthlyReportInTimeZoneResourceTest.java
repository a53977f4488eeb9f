package io.gpumeter.billing.rest;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

@QuarkusTest
@TestProfile(MonthlyReportInTimeZoneResourceTest.BerlinInEuros.class)
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(LedgerStandIn.class)
class MonthlyReportInTimeZoneResourceTest {

    public static class BerlinInEuros implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("gpumeter.billing.time-zone", "Europe/Berlin", "gpumeter.billing.currency", "EUR");
        }
    }

    @Test
    void aMonthRunsBetweenLocalMidnights() {
        // The fake ledger only has data for [2026-02-28T23:00Z, 2026-03-31T22:00Z) in this zone; other
        // bounds would come back empty or rejected.
        given().queryParam("month", "2026-03").queryParam("groupBy", "tenant").queryParam("format", "json")
                .when().get("/api/v1/reports/monthly")
                .then().statusCode(200)
                .body("size()", equalTo(3))
                .body("[0].period_start", equalTo("2026-03-01T00:00:00+01:00"))
                .body("[0].period_end", equalTo("2026-04-01T00:00:00+02:00"))
                .body("[0].tenant", equalTo("acme"))
                .body("[0].currency", equalTo("EUR"))
                .body("[2].tenant", equalTo("gamma"))
                .body("[2].allocated_cost", equalTo(12.30f));
    }

    @Test
    void csvPrintsTheLocalBounds() {
        given().queryParam("month", "2026-03")
                .when().get("/api/v1/reports/monthly")
                .then().statusCode(200)
                .body(startsWith(MonthlyReportResourceTest.HEADER
                        + "2026-03-01T00:00:00+01:00,2026-04-01T00:00:00+02:00,acme,"));
    }
}
