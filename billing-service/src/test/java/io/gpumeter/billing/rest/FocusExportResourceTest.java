package io.gpumeter.billing.rest;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(LedgerStandIn.class)
class FocusExportResourceTest {

    static final String HEADER = "BilledCost,BillingAccountId,BillingAccountName,BillingCurrency,BillingPeriodEnd,"
            + "BillingPeriodStart,ChargeCategory,ChargeClass,ChargeDescription,ChargeFrequency,ChargePeriodEnd,"
            + "ChargePeriodStart,ConsumedQuantity,ConsumedUnit,ContractedCost,ContractedUnitPrice,EffectiveCost,"
            + "InvoiceIssuerName,ListCost,ListUnitPrice,PricingCategory,PricingQuantity,PricingUnit,ProviderName,"
            + "PublisherName,ResourceId,ResourceName,ResourceType,ServiceCategory,ServiceName,SubAccountId,"
            + "SubAccountName,Tags,x_RateCardVersion,x_NormalizationPolicy,x_NormalizationVersion,x_UsedGpuHours,"
            + "x_IdleGpuHours,x_UsedCost,x_IdleCost,x_LineType,x_CorrectsPeriod,x_EnergyKilowattHours,x_EnergyCost,x_EmissionsKilogramsCo2e\r\n";
    static final String POLICY_CELL = "\"" + LedgerAnswers.POLICY + "\"";

    /** One FOCUS line as this service prints it; every figure is passed in as computed by hand. */
    static String row(String billingStart, String billingEnd, String chargeStart, String chargeEnd, String dimension,
                      String group, String model, String modelKey, String hours, String rate, String cost,
                      String versions, String used, String idle, String usedCost, String idleCost,
                      String corrects) {
        boolean correction = corrects != null;
        String description = (correction ? "Correction to " + corrects + ": " : "")
                + "allocated normalized GPU-hours on " + model + " for " + dimension + " " + group;
        return String.join(",", cost, "gpu-fleet", "GPU fleet", "USD", billingEnd, billingStart, "Usage",
                correction ? "Correction" : "", description, "Usage-Based", chargeEnd, chargeStart, hours,
                "GPU-Hours", cost, rate, cost, "gpumeter", cost, rate, "Standard", hours, "GPU-Hours", "gpumeter",
                "gpumeter", modelKey, model, "GPU", "Compute", "GPU time", group, group,
                "\"{\"\"" + dimension + "\"\":\"\"" + group + "\"\"}\"", versions, POLICY_CELL, "norm-2026.1", used,
                idle, usedCost, idleCost, correction ? "adjustment" : "usage", correction ? corrects : "",
                "0.000000", "", "") + "\r\n";
    }

    private static final String H100 = "NVIDIA-H100-80GB-HBM3";
    private static final String H100_KEY = "nvidia-h100-80gb-hbm3";

    private static String march(String group, String model, String key, String hours, String rate, String cost,
                                String used, String idle, String usedCost, String idleCost) {
        return row("2026-03-01T00:00:00Z", "2026-04-01T00:00:00Z", "2026-03-01T00:00:00Z", "2026-04-01T00:00:00Z",
                "tenant", group, model, key, hours, rate, cost, "test-7", used, idle, usedCost, idleCost, null);
    }

    @Test
    void monthlyFocusHasOneRowPerTenantAndModelWithAllocatedCostBilled() {
        /*
         * Test card: H100 4.10, L40S 1.10, anything else 1.50.
         * acme H100: 12.345678901234 h -> 12.345679; x 4.10 = 50.6172834950594 -> 50.62; used 3.1 h x 4.10 = 12.71;
         *            idle 12.345679 - 3.100000 = 9.245679 h, 50.62 - 12.71 = 37.91.
         * acme L40S: 3.5 h x 1.10 = 3.85; used 1.25 h x 1.10 = 1.375 -> 1.38 (half-even); idle 2.25 h, 2.47.
         *            (50.62 + 3.85 = 54.47, the native report's acme row.)
         * beta unknown (null and "unknown" are one model): 1.75 h x 1.50 = 2.625 -> 2.62; used 0.75 h = 1.125
         *            -> 1.12; idle 1 h, 1.50.
         * gamma H100 (two spellings, one model): 3 h x 4.10 = 12.30; used 0.75 h = 3.075 -> 3.08; idle 2.25 h, 9.22.
         */
        String expected = HEADER
                + march("acme", H100, H100_KEY, "12.345679", "4.100000", "50.62", "3.100000", "9.245679", "12.71",
                "37.91")
                + march("acme", "NVIDIA L40S", "nvidia-l40s", "3.500000", "1.100000", "3.85", "1.250000",
                "2.250000", "1.38", "2.47")
                + march("beta", "unknown", "unknown", "1.750000", "1.500000", "2.62", "0.750000", "1.000000", "1.12",
                "1.50")
                + march("gamma", H100, H100_KEY, "3.000000", "4.100000", "12.30", "0.750000", "2.250000", "3.08",
                "9.22");
        byte[] first = given().queryParam("month", "2026-03").queryParam("format", "focus")
                .when().get("/api/v1/reports/monthly")
                .then().statusCode(200)
                .contentType(startsWith("text/csv"))
                .header("Content-Disposition", "attachment; filename=\"gpumeter-focus-tenant-2026-03.csv\"")
                .extract().asByteArray();
        assertEquals(expected, new String(first, StandardCharsets.UTF_8));
        byte[] second = given().queryParam("month", "2026-03").queryParam("format", "FOCUS")
                .get("/api/v1/reports/monthly").then().statusCode(200).extract().asByteArray();
        assertArrayEquals(first, second);
    }

    @Test
    void weeklyFocusChargesTheWeekPerTeamAndModel() {
        /*
         * 2026-W10 by team: speech H100 1.25 h x 4.10 = 5.125 -> 5.12, nothing used;
         * vision H100 17.5 h x 4.10 = 71.75, used 11.2 h = 45.92, idle 6.3 h, 25.83;
         * vision L40S 2 h x 1.10 = 2.20, all used.
         */
        String week = "2026-03-02T00:00:00Z";
        String next = "2026-03-09T00:00:00Z";
        String body = given().queryParam("week", "2026-W10").queryParam("format", "focus")
                .when().get("/api/v1/reports/weekly")
                .then().statusCode(200)
                .header("Content-Disposition", "attachment; filename=\"gpumeter-focus-team-2026-W10.csv\"")
                .extract().asString();
        assertEquals(HEADER
                + row(week, next, week, next, "team", "speech", H100, H100_KEY, "1.250000", "4.100000", "5.12",
                "test-7", "0.000000", "1.250000", "0.00", "5.12", null)
                + row(week, next, week, next, "team", "vision", H100, H100_KEY, "17.500000", "4.100000", "71.75",
                "test-7", "11.200000", "6.300000", "45.92", "25.83", null)
                + row(week, next, week, next, "team", "vision", "NVIDIA L40S", "nvidia-l40s", "2.000000", "1.100000",
                "2.20", "test-7", "2.000000", "0.000000", "2.20", "0.00", null), body);
    }

    @Test
    void aFormulaInAGroupNameIsDefusedInEveryTextCell() {
        String body = given().queryParam("month", "2026-03").queryParam("format", "focus")
                .queryParam("groupBy", "team")
                .get("/api/v1/reports/monthly").then().statusCode(200).extract().asString();
        // SubAccountId and SubAccountName of team "=1+1" start with the defusing quote; the description does not
        // start with the name, and the Tags JSON starts with '{'.
        String line = body.lines().filter(l -> l.contains("team =1+1")).findFirst().orElseThrow();
        assertEquals(true, line.contains(",'=1+1,'=1+1,\"{\"\"team\"\":\"\"=1+1\"\"}\","), line);
    }
}
