package io.gpumeter.billing.rest;

import io.gpumeter.common.testing.Contract;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(LedgerStandIn.class)
class MonthlyReportResourceTest {

    private static final String PATH = "/api/v1/reports/monthly";
    static final String HEADER = "period_start,period_end,tenant,gpu_models,allocated_gpu_hours,rate,"
            + "currency,allocated_cost,rate_card_version,normalization_policy,normalization_version,"
            + "used_gpu_hours_showback,idle_gpu_hours_showback,used_cost_showback,idle_cost_showback,line_type,corrects_period,energy_kwh,energy_cost,co2e_kg\r\n";
    private static final String POLICY_CELL = "\"MIG 1g.10gb = 1/7 card, 3g.40gb = 3/7 card; vGPU = gpucores/100; "
            + "time-slice = 1/replicas\"";
    private static final String MARCH = "2026-03-01T00:00:00Z,2026-04-01T00:00:00Z,";

    /*
     * Test rate card (application.properties, %test): H100 4.10, L40S 1.10, anything else 1.50; version test-7.
     * acme:  12.345678901234 h x 4.10 = 50.6172834950594; 3.5 h x 1.10 = 3.85; cost 54.4672834950594 -> 54.47;
     *        hours 15.845678901234 -> 15.845679; effective rate 54.4672834950594 / 15.845678901234 = 3.4373587799...
     * beta:  (null + "unknown") 1.0 + 0.75 = 1.75 h x 1.50 = 2.625 -> 2.62 (half-even; half-up would say 2.63).
     * gamma: two spellings of the H100, 2 + 1 = 3 h x 4.10 = 12.30.
     * Used (showback): acme 3.1 h H100 x 4.10 = 12.71 + 1.25 h L40S x 1.10 = 1.375 -> 14.085 -> 14.08 (half-even),
     *        4.35 h; idle 15.845679 - 4.350000 = 11.495679 h, 54.47 - 14.08 = 40.39.
     * beta:  nothing measured on the null model, 0.75 h on "unknown" x 1.50 = 1.125 -> 1.12; idle 1.000000 h, 1.50.
     * gamma: 0.5 + 0.25 = 0.75 h x 4.10 = 3.075 -> 3.08; idle 2.250000 h, 12.30 - 3.08 = 9.22.
     */
    private static final String MARCH_BY_TENANT = HEADER
            + MARCH + "acme,NVIDIA L40S;NVIDIA-H100-80GB-HBM3,15.845679,3.437359,USD,54.47,test-7,"
            + POLICY_CELL + ",norm-2026.1,4.350000,11.495679,14.08,40.39,usage,,0.000000,,\r\n"
            + MARCH + "beta,unknown,1.750000,1.500000,USD,2.62,test-7," + POLICY_CELL
            + ",norm-2026.1,0.750000,1.000000,1.12,1.50,usage,,0.000000,,\r\n"
            + MARCH + "gamma,NVIDIA-H100-80GB-HBM3,3.000000,4.100000,USD,12.30,test-7," + POLICY_CELL
            + ",norm-2026.1,0.750000,2.250000,3.08,9.22,usage,,0.000000,,\r\n";

    @Test
    void csvByTenantHasOneRowPerTenantPricedByModel() {
        String body = given().queryParam("month", "2026-03")
                .when().get(PATH)
                .then().statusCode(200)
                .contentType(startsWith("text/csv"))
                .header("Content-Disposition", "attachment; filename=\"gpumeter-tenant-2026-03.csv\"")
                .extract().asString();
        assertEquals(MARCH_BY_TENANT, body);
    }

    @Test
    void sameLedgerDataGivesTheSameBytes() {
        byte[] first = given().queryParam("month", "2026-03").get(PATH).then().statusCode(200)
                .extract().asByteArray();
        byte[] second = given().queryParam("month", "2026-03").queryParam("format", "csv")
                .queryParam("groupBy", "tenant").get(PATH).then().statusCode(200).extract().asByteArray();
        assertEquals(MARCH_BY_TENANT, new String(first, StandardCharsets.UTF_8));
        assertArrayEquals(first, second);
    }

    @Test
    void cellsThatASpreadsheetWouldRunAreDefused() {
        // Teams sort by their raw names: '(' < '=' < '@' < 'm'.
        String body = given().queryParam("month", "2026-03").queryParam("groupBy", "team")
                .when().get(PATH)
                .then().statusCode(200)
                .header("Content-Disposition", "attachment; filename=\"gpumeter-team-2026-03.csv\"")
                .extract().asString();
        assertEquals(HEADER.replace(",tenant,", ",team,")
                + MARCH + "(unassigned),NVIDIA-H100-80GB-HBM3,0.500000,4.100000,USD,2.05,test-7," + POLICY_CELL
                + ",norm-2026.1,0.000000,0.500000,0.00,2.05,usage,,0.000000,,\r\n"
                + MARCH + "'=1+1,NVIDIA-H100-80GB-HBM3,2.000000,4.100000,USD,8.20,test-7," + POLICY_CELL
                + ",norm-2026.1,0.000000,2.000000,0.00,8.20,usage,,0.000000,,\r\n"
                + MARCH + "'@SUM(A1:A9),NVIDIA L40S,1.000000,1.100000,USD,1.10,test-7," + POLICY_CELL
                + ",norm-2026.1,0.000000,1.000000,0.00,1.10,usage,,0.000000,,\r\n"
                + MARCH + "ml-platform,NVIDIA-H100-80GB-HBM3,1.000000,4.100000,USD,4.10,test-7," + POLICY_CELL
                + ",norm-2026.1,0.000000,1.000000,0.00,4.10,usage,,0.000000,,\r\n", body);
    }

    @Test
    void jsonCarriesTheSameRowsWithNumbersAsNumbers() {
        String policy = "MIG 1g.10gb = 1/7 card, 3g.40gb = 3/7 card; vGPU = gpucores/100; time-slice = 1/replicas";
        String tail = "\"rate_card_version\":\"test-7\",\"normalization_policy\":\"" + policy
                + "\",\"normalization_version\":\"norm-2026.1\",";
        String period = "{\"period_start\":\"2026-03-01T00:00:00Z\",\"period_end\":\"2026-04-01T00:00:00Z\",";
        String body = given().queryParam("month", "2026-03").queryParam("format", "json")
                .when().get(PATH)
                .then().statusCode(200)
                .contentType(startsWith("application/json"))
                .extract().asString();
        assertEquals("["
                + period + "\"tenant\":\"acme\",\"gpu_models\":\"NVIDIA L40S;NVIDIA-H100-80GB-HBM3\","
                + "\"allocated_gpu_hours\":15.845679,\"rate\":3.437359,\"currency\":\"USD\",\"allocated_cost\":54.47,"
                + tail + "\"used_gpu_hours_showback\":4.350000,\"idle_gpu_hours_showback\":11.495679,"
                + "\"used_cost_showback\":14.08,\"idle_cost_showback\":40.39,\"line_type\":\"usage\",\"corrects_period\":null,\"energy_kwh\":0.000000,\"energy_cost\":null,\"co2e_kg\":null},"
                + period + "\"tenant\":\"beta\",\"gpu_models\":\"unknown\","
                + "\"allocated_gpu_hours\":1.750000,\"rate\":1.500000,\"currency\":\"USD\",\"allocated_cost\":2.62,"
                + tail + "\"used_gpu_hours_showback\":0.750000,\"idle_gpu_hours_showback\":1.000000,"
                + "\"used_cost_showback\":1.12,\"idle_cost_showback\":1.50,\"line_type\":\"usage\",\"corrects_period\":null,\"energy_kwh\":0.000000,\"energy_cost\":null,\"co2e_kg\":null},"
                + period + "\"tenant\":\"gamma\",\"gpu_models\":\"NVIDIA-H100-80GB-HBM3\","
                + "\"allocated_gpu_hours\":3.000000,\"rate\":4.100000,\"currency\":\"USD\",\"allocated_cost\":12.30,"
                + tail + "\"used_gpu_hours_showback\":0.750000,\"idle_gpu_hours_showback\":2.250000,"
                + "\"used_cost_showback\":3.08,\"idle_cost_showback\":9.22,\"line_type\":\"usage\",\"corrects_period\":null,\"energy_kwh\":0.000000,\"energy_cost\":null,\"co2e_kg\":null}]", body);
        Contract.record("billing", "monthly-report", body); // the console's Hours page sets its cost beside the ledger's hours
    }

    @Test
    void aMonthWithoutGrantsIsTheHeaderAlone() {
        given().queryParam("month", "2026-05").queryParam("groupBy", "namespace")
                .when().get(PATH)
                .then().statusCode(200)
                .header("Content-Disposition", "attachment; filename=\"gpumeter-namespace-2026-05.csv\"")
                .body(equalTo(HEADER.replace(",tenant,", ",namespace,")));
    }

    @Test
    void aLedger404IsAnEmptyMonthNotAnOutage() {
        given().queryParam("month", "2030-03").queryParam("format", "json")
                .when().get(PATH)
                .then().statusCode(200)
                .body(equalTo("[]"));
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(nullValues = "NULL", value = {
            "month,    2026-13, csv,  tenant",
            "month,    2026-1,  csv,  tenant",
            "month,    2026-00, csv,  tenant",
            "month,    26-03,   csv,  tenant",
            "month,    2026-03-01, csv, tenant",
            "month,    march,   csv,  tenant",
            "month,    NULL,    csv,  tenant",
            "format,   2026-03, xml,  tenant",
            "format,   2026-03, pdf,  tenant",
            "groupBy,  2026-03, csv,  pod",
            "groupBy,  2026-03, json, model",
    })
    void badInputIsAProblemNamingTheField(String field, String month, String format, String groupBy) {
        var request = given().queryParam("format", format).queryParam("groupBy", groupBy);
        if (month != null) {
            request.queryParam("month", month);
        }
        request.when().get(PATH)
                .then().statusCode(400)
                .contentType("application/problem+json")
                .body("status", equalTo(400))
                .body("field", equalTo(field))
                .body("detail", containsString(field));
    }

    @Test
    void aFailingLedgerIsA503AfterRetries() {
        given().queryParam("month", "2030-01")
                .when().get(PATH)
                .then().statusCode(503)
                .contentType("application/problem+json")
                .body("status", equalTo(503))
                .body("detail", containsString("ledger-service"));
        assertEquals("3", ledgerCalls(LedgerAnswers.ANSWERS_500), "one call and two retries");
    }

    @Test
    void aLedgerThatHangsUpIsA503() {
        given().queryParam("month", "2030-02")
                .when().get(PATH)
                .then().statusCode(503)
                .contentType("application/problem+json")
                .body("title", equalTo("Service Unavailable"));
    }

    static String ledgerCalls(String from) {
        return String.valueOf(LedgerStandIn.calls(from));
    }
}
