package io.gpumeter.billing.rest;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(LedgerStandIn.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class) // October is closed once, by the first test
class MonthCloseResourceTest {

    private static final String MONTHLY = "/api/v1/reports/monthly";
    private static final String POLICY = ",\"" + LedgerAnswers.POLICY + "\",norm-2026.1,";
    private static final String OCTOBER = "2025-10-01T00:00:00Z,2025-11-01T00:00:00Z,";
    private static final String NOVEMBER = "2025-11-01T00:00:00Z,2025-12-01T00:00:00Z,";
    private static final String OCTOBER_CARD = """
            {"version":"oct-b","effectiveFrom":"2025-10-16T00:00:00Z","defaultRate":2.00,
             "models":{"NVIDIA-H100-80GB-HBM3":5.00}}""";

    /*
     * October 2025 is cut on the 16th: before it the configured card test-7 (H100 4.10, L40S 1.10, else 1.50),
     * from it the stored card oct-b (H100 5.00, else 2.00, so L40S 2.00).
     * acme: 1-16 H100 100 h (40 used) x 4.10 = 410, L40S 20 h (5 used) x 1.10 = 22; 16-31 H100 50 h (50 used)
     *       x 5.00 = 250. Hours 170, cost 682.00, rate 682 / 170 = 4.01176470... -> 4.011765;
     *       used 95 h, 164 + 5.50 + 250 = 419.50; idle 75 h, 682.00 - 419.50 = 262.50.
     * beta: 1-16 H100 10 h (10 used) x 4.10 = 41; 16-31 L40S 8 h (0 used) x 2.00 = 16. Hours 18, cost 57.00,
     *       rate 57 / 18 = 3.1666... -> 3.166667; used 10 h, 41.00; idle 8 h, 16.00.
     */
    private static final String OCTOBER_BY_TENANT = MonthlyReportResourceTest.HEADER
            + OCTOBER + "acme,NVIDIA L40S;NVIDIA-H100-80GB-HBM3,170.000000,4.011765,USD,682.00,test-7;oct-b" + POLICY
            + "95.000000,75.000000,419.50,262.50,usage,,0.000000,,\r\n"
            + OCTOBER + "beta,NVIDIA L40S;NVIDIA-H100-80GB-HBM3,18.000000,3.166667,USD,57.00,test-7;oct-b" + POLICY
            + "10.000000,8.000000,41.00,16.00,usage,,0.000000,,\r\n";

    /*
     * The late facts, priced with October's frozen cards even though oct-b has been deleted meanwhile:
     * acme:  +6 h H100 after the 16th x 5.00 = +30.00; nothing more used, so idle +6 h, +30.00.
     * beta:  -1 h H100 before the 16th x 4.10 = -4.10, used -1 h, -4.10; idle 0.
     * gamma: +4.0625 h H100 before the 16th x 4.10 = 16.65625 -> 16.66 (half-even), used 1.5 h x 4.10 = 6.15;
     *        idle 4.062500 - 1.500000 = 2.562500 h, 16.66 - 6.15 = 10.51.
     */
    private static final String NOVEMBER_ADJUSTMENTS = MonthlyReportResourceTest.HEADER
            + NOVEMBER + "acme,NVIDIA-H100-80GB-HBM3,6.000000,5.000000,USD,30.00,oct-b" + POLICY
            + "0.000000,6.000000,0.00,30.00,adjustment,2025-10,0.000000,,\r\n"
            + NOVEMBER + "beta,NVIDIA-H100-80GB-HBM3,-1.000000,4.100000,USD,-4.10,test-7" + POLICY
            + "-1.000000,0.000000,-4.10,0.00,adjustment,2025-10,0.000000,,\r\n"
            + NOVEMBER + "gamma,NVIDIA-H100-80GB-HBM3,4.062500,4.100000,USD,16.66,test-7" + POLICY
            + "1.500000,2.562500,6.15,10.51,adjustment,2025-10,0.000000,,\r\n";

    @Test
    @Order(1)
    void aClosedMonthIsFrozenAndLateFactsBecomeAdjustmentsOfTheNextOpenMonth() {
        given().contentType(ContentType.JSON).body(OCTOBER_CARD).post("/api/v1/rate-cards").then().statusCode(201);
        Response open;
        try {
            open = month("2025-10", "csv");
            assertEquals(OCTOBER_BY_TENANT, open.asString());

            given().post(MONTHLY + "/2025-10/close")
                    .then().statusCode(201)
                    .contentType(ContentType.JSON)
                    .header("Location", endsWith("/api/v1/reports/monthly?month=2025-10"))
                    .body("month", equalTo("2025-10"))
                    .body("periodStart", equalTo("2025-10-01T00:00:00Z"))
                    .body("periodEnd", equalTo("2025-11-01T00:00:00Z"))
                    .body("rateCardVersions", equalTo(List.of("test-7", "oct-b")))
                    .body("normalizationVersion", equalTo("norm-2026.1"))
                    .body("currency", equalTo("USD"))
                    .body("usageLines", equalTo(5))
                    .body("adjustmentLines", equalTo(0))
                    .body("capacityLines", equalTo(3))
                    .body("csvSha256", equalTo(open.header("X-Content-SHA256")));
        } finally {
            // The closed month keeps its copy of the card; later months go back to the configured one.
            given().delete("/api/v1/rate-cards/oct-b").then().statusCode(204);
        }

        // Served from the snapshot: the same bytes and hash as the open month's report.
        Response closed = month("2025-10", "csv");
        assertEquals(OCTOBER_BY_TENANT, closed.asString());
        assertEquals(open.header("X-Content-SHA256"), closed.header("X-Content-SHA256"));
        // Nothing to correct yet: November (open, nothing used) is the header alone.
        assertEquals(MonthlyReportResourceTest.HEADER, month("2025-11", "csv").asString());

        given().post(MONTHLY + "/2025-10/close")
                .then().statusCode(409)
                .contentType("application/problem+json")
                .body("field", equalTo("month"))
                .body("detail", containsString("already closed"));

        lateFactsArriveForOctober();
        int ledgerCallsBefore = ledgerCalls(LedgerAnswers.OCT_FROM);
        assertEquals(OCTOBER_BY_TENANT, month("2025-10", "csv").asString(), "a closed month never changes");
        assertEquals(ledgerCallsBefore, ledgerCalls(LedgerAnswers.OCT_FROM),
                "a closed month's report does not ask the ledger");
        String november = month("2025-11", "csv").asString();
        assertEquals(NOVEMBER_ADJUSTMENTS, november);
        // December is not next to October while November is open.
        assertEquals(MonthlyReportResourceTest.HEADER, month("2025-12", "csv").asString());

        // Closing November freezes the adjustments it carries; they are then billed and not carried again.
        given().post(MONTHLY + "/2025-11/close")
                .then().statusCode(201)
                .body("usageLines", equalTo(0))
                .body("adjustmentLines", equalTo(3));
        assertEquals(NOVEMBER_ADJUSTMENTS, month("2025-11", "csv").asString());
        assertEquals(MonthlyReportResourceTest.HEADER, month("2025-12", "csv").asString());
    }

    @Test
    @Order(2)
    void aClosedMonthServesEveryGroupingAndTenantFromItsSnapshot() {
        /*
         * acme by team from the stored lines: speech L40S 20 h x 1.10 = 22.00, 5 used = 5.50, idle 15 h, 16.50;
         * vision H100 100 h x 4.10 + 50 h x 5.00 = 660.00 over 150 h = 4.400000, used 90 h = 164 + 250 = 414.00,
         * idle 60 h, 246.00.
         */
        String body = given().queryParam("month", "2025-10").queryParam("groupBy", "team")
                .queryParam("tenant", "acme")
                .get(MONTHLY).then().statusCode(200)
                .header("Content-Disposition", "attachment; filename=\"gpumeter-team-2025-10-acme.csv\"")
                .extract().asString();
        assertEquals(MonthlyReportResourceTest.HEADER.replace(",tenant,", ",team,")
                + OCTOBER + "speech,NVIDIA L40S,20.000000,1.100000,USD,22.00,test-7" + POLICY
                + "5.000000,15.000000,5.50,16.50,usage,,0.000000,,\r\n"
                + OCTOBER + "vision,NVIDIA-H100-80GB-HBM3,150.000000,4.400000,USD,660.00,test-7;oct-b" + POLICY
                + "90.000000,60.000000,414.00,246.00,usage,,0.000000,,\r\n", body);
        given().queryParam("month", "2025-10").queryParam("format", "json").queryParam("tenant", "beta")
                .get(MONTHLY).then().statusCode(200)
                .body("size()", equalTo(1))
                .body("[0].tenant", equalTo("beta"))
                .body("[0].allocated_cost", equalTo(57.00f))
                .body("[0].line_type", equalTo("usage"))
                .body("[0].corrects_period", equalTo(null));
    }

    @Test
    void aMonthThatHasNotEndedCannotBeClosed() {
        given().post(MONTHLY + "/2027-01/close")
                .then().statusCode(409)
                .contentType("application/problem+json")
                .body("field", equalTo("month"))
                .body("detail", containsString("has not ended"));
    }

    @Test
    @Order(3)
    void focusMarksAdjustmentsAsCorrectionsChargedInTheCorrectedMonth() {
        // November (closed, carrying October's corrections) as FOCUS: billed in November, charged in October.
        String nov = "2025-11-01T00:00:00Z";
        String dec = "2025-12-01T00:00:00Z";
        String oct = "2025-10-01T00:00:00Z";
        String h100 = LedgerAnswers.H100;
        String key = "nvidia-h100-80gb-hbm3";
        String body = given().queryParam("month", "2025-11").queryParam("format", "focus")
                .get(MONTHLY).then().statusCode(200).extract().asString();
        assertEquals(FocusExportResourceTest.HEADER
                + FocusExportResourceTest.row(nov, dec, oct, nov, "tenant", "acme", h100, key, "6.000000", "5.000000",
                "30.00", "oct-b", "0.000000", "6.000000", "0.00", "30.00", "2025-10")
                + FocusExportResourceTest.row(nov, dec, oct, nov, "tenant", "beta", h100, key, "-1.000000",
                "4.100000", "-4.10", "test-7", "-1.000000", "0.000000", "-4.10", "0.00", "2025-10")
                + FocusExportResourceTest.row(nov, dec, oct, nov, "tenant", "gamma", h100, key, "4.062500",
                "4.100000", "16.66", "test-7", "1.500000", "2.562500", "6.15", "10.51", "2025-10"), body);
    }

    @Test
    @Order(4)
    void aClosedMonthReconcilesWithTheCapacityFrozenAtClose() {
        /*
         * October's capacity as the ledger gave it at close: 1-16 H100 200 card-hours x 4.10 = 820; 16-31 H100 100
         * x 5.00 = 500 and NVIDIA-L40S 20 x 2.00 = 40 (oct-b's default); 320 h, 1360.00. Usage: 170 + 18 = 188 h,
         * 682.00 + 57.00 = 739.00. Unallocated 132 h, 621.00, at 621 / 132 = 4.7045454... -> 4.704545.
         * Shares: acme 621 x 682 / 739 = 573.1014... -> 573.10, beta 621 x 57 / 739 = 47.8985... -> 47.90;
         * totals 1255.10 and 104.90, and 1255.10 + 104.90 + 0.00 = 1360.00.
         */
        String csv = given().queryParam("month", "2025-10").queryParam("share", "proportional")
                .get(MONTHLY).then().statusCode(200).extract().asString();
        assertEquals(ReconciliationResourceTest.SHARE_HEADER
                + OCTOBER + "acme,NVIDIA L40S;NVIDIA-H100-80GB-HBM3,170.000000,4.011765,USD,682.00,test-7;oct-b"
                + POLICY + "95.000000,75.000000,419.50,262.50,usage,,573.10,1255.10,0.000000,,\r\n"
                + OCTOBER + "beta,NVIDIA L40S;NVIDIA-H100-80GB-HBM3,18.000000,3.166667,USD,57.00,test-7;oct-b"
                + POLICY + "10.000000,8.000000,41.00,16.00,usage,,47.90,104.90,0.000000,,\r\n"
                + OCTOBER + "(unallocated capacity),NVIDIA-H100-80GB-HBM3;NVIDIA-L40S,132.000000,4.704545,USD,621.00,"
                + "test-7;oct-b" + POLICY + "0.000000,132.000000,0.00,621.00,unallocated,,-621.00,0.00,0.000000,,\r\n", csv);
        // November billed only October's corrections (30.00 - 4.10 + 16.66 = 42.56), outside its own identity.
        given().queryParam("month", "2025-11").get(MONTHLY + "/reconciliation").then().statusCode(200)
                .body("capacityCost", equalTo(0.0f))
                .body("allocatedCost", equalTo(0.0f))
                .body("adjustmentCost", equalTo(42.56f))
                .body("reconciles", equalTo(true));
    }

    @ParameterizedTest
    @ValueSource(strings = {"2025-13", "2025-1", "25-10", "october", "2025-10-01"})
    void aBadMonthIsAProblemNamingIt(String month) {
        given().post(MONTHLY + "/" + month + "/close")
                .then().statusCode(400)
                .contentType("application/problem+json")
                .body("status", equalTo(400))
                .body("field", equalTo("month"))
                .body("detail", containsString("month"));
    }

    private static Response month(String month, String format) {
        return given().queryParam("month", month).queryParam("format", format).get(MONTHLY)
                .then().statusCode(200).extract().response();
    }

    private static void lateFactsArriveForOctober() {
        LedgerStandIn.correctOctober();
    }

    private static int ledgerCalls(String from) {
        return Integer.parseInt(MonthlyReportResourceTest.ledgerCalls(from));
    }
}
