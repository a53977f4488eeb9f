package io.gpumeter.billing.rest;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(LedgerStandIn.class)
class ReconciliationResourceTest {

    private static final String MONTHLY = "/api/v1/reports/monthly";
    static final String SHARE_HEADER = MonthlyReportResourceTest.HEADER.replace(",energy_kwh,energy_cost,co2e_kg\r\n",
            ",unallocated_share_cost,total_cost,energy_kwh,energy_cost,co2e_kg\r\n");
    private static final String POLICY = ",\"" + LedgerAnswers.POLICY + "\",norm-2026.1,";
    private static final String MARCH = "2026-03-01T00:00:00Z,2026-04-01T00:00:00Z,";

    /*
     * March 2026 capacity: H100 40 card-hours x 4.10 = 164.00, NVIDIA-L40S 10 x 1.10 = 11.00; 175.00 over 50 h.
     * Usage lines (as in the plain report): acme 15.845679 h 54.47, beta 1.750000 h 2.62, gamma 3.000000 h 12.30:
     * 20.595679 h, 69.39. Unallocated: 50.000000 - 20.595679 = 29.404321 h, 175.00 - 69.39 = 105.61, at
     * 105.61 / 29.404321 = 3.59164899... -> 3.591649 per hour, all idle.
     * Proportional shares of 105.61 by allocated cost: acme 105.61 x 54.47 / 69.39 = 82.9020... -> 82.90,
     * beta 105.61 x 2.62 / 69.39 = 3.98758... -> 3.99, gamma 105.61 x 12.30 / 69.39 = 18.7203... -> 18.72;
     * 82.90 + 3.99 + 18.72 = 105.61, so nothing stays unshared.
     */
    private static String marchRows(String acme, String beta, String gamma, String unallocated) {
        return MARCH + "acme,NVIDIA L40S;NVIDIA-H100-80GB-HBM3,15.845679,3.437359,USD,54.47,test-7" + POLICY
                + "4.350000,11.495679,14.08,40.39,usage,," + acme + ",0.000000,,\r\n"
                + MARCH + "beta,unknown,1.750000,1.500000,USD,2.62,test-7" + POLICY
                + "0.750000,1.000000,1.12,1.50,usage,," + beta + ",0.000000,,\r\n"
                + MARCH + "gamma,NVIDIA-H100-80GB-HBM3,3.000000,4.100000,USD,12.30,test-7" + POLICY
                + "0.750000,2.250000,3.08,9.22,usage,," + gamma + ",0.000000,,\r\n"
                + MARCH + "(unallocated capacity),NVIDIA-H100-80GB-HBM3;NVIDIA-L40S,29.404321,3.591649,USD,105.61,"
                + "test-7" + POLICY + "0.000000,29.404321,0.00,105.61,unallocated,," + unallocated + ",0.000000,,\r\n";
    }

    private static String month(String share, String format, String tenant) {
        var request = given().queryParam("month", "2026-03").queryParam("share", share).queryParam("format", format);
        if (tenant != null) {
            request.queryParam("tenant", tenant);
        }
        return request.get(MONTHLY).then().statusCode(200).extract().asString();
    }

    @Test
    void withoutSharingTheUnallocatedLineMakesUpTheFleetCapacityCost() {
        String csv = month("none", "csv", null);
        assertEquals(SHARE_HEADER + marchRows("0.00,54.47", "0.00,2.62", "0.00,12.30", "0.00,105.61"), csv);
        // Σ allocated_cost = 54.47 + 2.62 + 12.30 + 105.61 = 175.00, the capacity cost.
    }

    @Test
    void proportionalSharingMovesTheUnallocatedCostOntoTheUsageLines() {
        String csv = month("proportional", "csv", null);
        // Totals: 54.47 + 82.90 = 137.37, 2.62 + 3.99 = 6.61, 12.30 + 18.72 = 31.02; unallocated 105.61 - 105.61.
        assertEquals(SHARE_HEADER + marchRows("82.90,137.37", "3.99,6.61", "18.72,31.02", "-105.61,0.00"), csv);
        // 137.37 + 6.61 + 31.02 + 0.00 = 175.00.
    }

    @Test
    void aTenantSeesItsShareButNotTheFleetsUnallocatedLine() {
        String csv = month("proportional", "csv", "acme");
        assertEquals(SHARE_HEADER + MARCH + "acme,NVIDIA L40S;NVIDIA-H100-80GB-HBM3,15.845679,3.437359,USD,54.47,"
                + "test-7" + POLICY + "4.350000,11.495679,14.08,40.39,usage,,82.90,137.37,0.000000,,\r\n", csv);
        assertEquals(MonthlyReportResourceTest.HEADER.length(), month(null, "csv", "acme").indexOf("\r\n") + 2,
                "without share the columns are the plain report's");
    }

    @Test
    void theStatementSaysHowTheLinesAddUp() {
        given().queryParam("month", "2026-03").queryParam("share", "proportional")
                .get(MONTHLY + "/reconciliation").then().statusCode(200)
                .body("period", equalTo("2026-03"))
                .body("groupBy", equalTo("tenant"))
                .body("share", equalTo("proportional"))
                .body("capacityGpuHours", equalTo(50.0f))
                .body("capacityCost", equalTo(175.0f))
                .body("allocatedGpuHours", equalTo(20.595679f))
                .body("allocatedCost", equalTo(69.39f))
                .body("unallocatedGpuHours", equalTo(29.404321f))
                .body("unallocatedCost", equalTo(105.61f))
                .body("sharedCost", equalTo(105.61f))
                .body("unsharedCost", equalTo(0.0f))
                .body("adjustmentCost", equalTo(0.0f))
                .body("printedTotalCost", equalTo(175.0f))
                .body("reconciles", equalTo(true))
                .body("statement", equalTo("usage 69.39 + unallocated 105.61 = fleet capacity 175.00 USD "
                        + "(50.000000 card-hours, 20.595679 allocated); proportional sharing: 105.61 borne by usage "
                        + "lines, 0.00 unshared"));
        // Without a share parameter the statement is for no sharing.
        given().queryParam("month", "2026-03").get(MONTHLY + "/reconciliation").then().statusCode(200)
                .body("share", equalTo("none"))
                .body("sharedCost", equalTo(0.0f))
                .body("unsharedCost", equalTo(105.61f));
    }

    @Test
    void weeklyReportsReconcileWithTheWeeksCapacity() {
        /*
         * 2026-W10 capacity: H100 168 h x 4.10 = 688.80. Usage by team: speech 1.25 h 5.12; vision 17.5 h H100
         * (71.75) + 2 h L40S (2.20) = 19.5 h 73.95. Unallocated: 168 - 20.75 = 147.25 h, 688.80 - 79.07 = 609.73,
         * rate 609.73 / 147.25 = 4.14078... -> 4.140781. Shares: speech 609.73 x 5.12 / 79.07 = 39.4816... -> 39.48,
         * vision 609.73 x 73.95 / 79.07 = 570.2483... -> 570.25; 609.73 shared.
         */
        String week = "2026-03-02T00:00:00Z,2026-03-09T00:00:00Z,";
        String csv = given().queryParam("week", "2026-W10").queryParam("share", "proportional")
                .get("/api/v1/reports/weekly").then().statusCode(200).extract().asString();
        assertEquals(SHARE_HEADER.replace(",tenant,", ",team,")
                + week + "speech,NVIDIA-H100-80GB-HBM3,1.250000,4.100000,USD,5.12,test-7" + POLICY
                + "0.000000,1.250000,0.00,5.12,usage,,39.48,44.60,0.000000,,\r\n"
                + week + "vision,NVIDIA L40S;NVIDIA-H100-80GB-HBM3,19.500000,3.792308,USD,73.95,test-7" + POLICY
                + "13.200000,6.300000,48.12,25.83,usage,,570.25,644.20,0.000000,,\r\n"
                + week + "(unallocated capacity),NVIDIA-H100-80GB-HBM3,147.250000,4.140781,USD,609.73,test-7" + POLICY
                + "0.000000,147.250000,0.00,609.73,unallocated,,-609.73,0.00,0.000000,,\r\n", csv);
        given().queryParam("week", "2026-W10").get("/api/v1/reports/weekly/reconciliation").then().statusCode(200)
                .body("capacityCost", equalTo(688.8f))
                .body("unallocatedCost", equalTo(609.73f))
                .body("reconciles", equalTo(true));
    }

    @Test
    void focusCarriesTheUnallocatedLineWithoutASubAccount() {
        String csv = month("none", "focus", null);
        String[] lines = csv.split("\r\n");
        assertTrue(lines[0].endsWith(",x_LineType,x_CorrectsPeriod,x_UnallocatedShareCost,x_TotalCost,"
                + "x_EnergyKilowattHours,x_EnergyCost,x_EmissionsKilogramsCo2e"), lines[0]);
        String last = lines[lines.length - 1];
        // BilledCost 105.61; ResourceId, SubAccountId and SubAccountName empty; Tags {}.
        assertTrue(last.startsWith("105.61,gpu-fleet,GPU fleet,USD,2026-04-01T00:00:00Z,2026-03-01T00:00:00Z,Usage,,"
                + "unallocated fleet capacity on NVIDIA-H100-80GB-HBM3;NVIDIA-L40S,Usage-Based,"), last);
        assertTrue(last.contains(",,NVIDIA-H100-80GB-HBM3;NVIDIA-L40S,GPU,Compute,GPU time,,,{},test-7,"), last);
        assertTrue(last.endsWith(",unallocated,,0.00,105.61,0.000000,,"), last);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "/api/v1/reports/monthly?month=2026-03&share=all",
            "/api/v1/reports/weekly?week=2026-W10&share=evenly",
            "/api/v1/reports/monthly/reconciliation?month=2026-03&share=half",
            "/api/v1/reports/weekly/reconciliation?week=2026-W10&share=x",
    })
    void aBadShareIsAProblemNamingIt(String url) {
        given().get(url).then().statusCode(400)
                .contentType("application/problem+json")
                .body("field", equalTo("share"))
                .body("detail", containsString("share must be none or proportional"));
    }

    @Test
    void aBadMonthForTheStatementIsAProblemNamingIt() {
        given().queryParam("month", "2026-3").get(MONTHLY + "/reconciliation").then().statusCode(400)
                .contentType("application/problem+json")
                .body("field", equalTo("month"));
    }
}
