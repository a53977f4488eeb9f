package io.gpumeter.billing.rest;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(LedgerStandIn.class)
class WeeklyReportResourceTest {

    private static final String WEEKLY = "/api/v1/reports/weekly";
    private static final String MONTHLY = "/api/v1/reports/monthly";
    private static final String HEADER = MonthlyReportResourceTest.HEADER.replace(",tenant,", ",team,");
    private static final String POLICY_CELL = "\"" + LedgerAnswers.POLICY + "\"";
    private static final String WEEK = "2026-03-02T00:00:00Z,2026-03-09T00:00:00Z,";
    private static final String MARCH = "2026-03-01T00:00:00Z,2026-04-01T00:00:00Z,";

    /*
     * The fake ledger's 2026-W10 by team (rates H100 4.10, L40S 1.10):
     * speech: 1.25 h H100, nothing used: 1.25 x 4.10 = 5.125 -> 5.12 (half-even); idle 1.250000 h, 5.12.
     * vision: 17.5 h H100 (11.2 used) + 2 h L40S (2 used) = 19.5 h allocated, 13.2 h used, 6.3 h idle.
     *         cost 71.75 + 2.20 = 73.95; rate 73.95 / 19.5 = 3.7923076... -> 3.792308;
     *         used cost 45.92 + 2.20 = 48.12; idle cost 73.95 - 48.12 = 25.83.
     */
    private static final String WEEK_BY_TEAM = HEADER
            + WEEK + "speech,NVIDIA-H100-80GB-HBM3,1.250000,4.100000,USD,5.12,test-7," + POLICY_CELL
            + ",norm-2026.1,0.000000,1.250000,0.00,5.12,usage,,0.000000,,\r\n"
            + WEEK + "vision,NVIDIA L40S;NVIDIA-H100-80GB-HBM3,19.500000,3.792308,USD,73.95,test-7," + POLICY_CELL
            + ",norm-2026.1,13.200000,6.300000,48.12,25.83,usage,,0.000000,,\r\n";

    @Test
    void aTeamsAllocatedAndUsedHoursThisWeek() {
        String body = given().queryParam("week", "2026-W10")
                .when().get(WEEKLY)
                .then().statusCode(200)
                .contentType(startsWith("text/csv"))
                .header("Content-Disposition", "attachment; filename=\"gpumeter-team-2026-W10.csv\"")
                .extract().asString();
        assertEquals(WEEK_BY_TEAM, body);
    }

    @Test
    void jsonWeekMatchesTheLedgersHours() {
        given().queryParam("week", "2026-W10").queryParam("format", "json")
                .when().get(WEEKLY)
                .then().statusCode(200)
                .contentType(startsWith("application/json"))
                .body("size()", equalTo(2))
                .body("[1].team", equalTo("vision"))
                .body("[1].allocated_gpu_hours", equalTo(19.5f))
                .body("[1].used_gpu_hours_showback", equalTo(13.2f))
                .body("[1].idle_gpu_hours_showback", equalTo(6.3f))
                .body("[0].team", equalTo("speech"))
                .body("[0].allocated_gpu_hours", equalTo(1.25f));
    }

    @Test
    void oneTenantsWeekAsksTheLedgerByTenantAndKeepsOnlyItsRows() {
        // acme only: vision 10.5 h H100 (4.2 used) + 2 h L40S (2 used): cost 43.05 + 2.20 = 45.25, rate 3.62,
        // used 6.2 h costing 17.22 + 2.20 = 19.42, idle 6.3 h costing 45.25 - 19.42 = 25.83. beta's 7 h are gone.
        String body = given().queryParam("week", "2026-W10").queryParam("tenant", "acme")
                .when().get(WEEKLY)
                .then().statusCode(200)
                .header("Content-Disposition", "attachment; filename=\"gpumeter-team-2026-W10-acme.csv\"")
                .extract().asString();
        assertEquals(HEADER
                + WEEK + "speech,NVIDIA-H100-80GB-HBM3,1.250000,4.100000,USD,5.12,test-7," + POLICY_CELL
                + ",norm-2026.1,0.000000,1.250000,0.00,5.12,usage,,0.000000,,\r\n"
                + WEEK + "vision,NVIDIA L40S;NVIDIA-H100-80GB-HBM3,12.500000,3.620000,USD,45.25,test-7,"
                + POLICY_CELL + ",norm-2026.1,6.200000,6.300000,19.42,25.83,usage,,0.000000,,\r\n", body);
    }

    @Test
    void oneTenantsMonthByTenantAndByTeam() {
        String byTenant = given().queryParam("month", "2026-03").queryParam("tenant", "gamma")
                .when().get(MONTHLY)
                .then().statusCode(200)
                .header("Content-Disposition", "attachment; filename=\"gpumeter-tenant-2026-03-gamma.csv\"")
                .extract().asString();
        assertEquals(MonthlyReportResourceTest.HEADER
                + MARCH + "gamma,NVIDIA-H100-80GB-HBM3,3.000000,4.100000,USD,12.30,test-7," + POLICY_CELL
                + ",norm-2026.1,0.750000,2.250000,3.08,9.22,usage,,0.000000,,\r\n", byTenant);

        // beta's team "=1+1": 2 h x 4.10 = 8.20; 0.5 h used = 2.05; idle 1.5 h, 6.15. acme's team is left out.
        String byTeam = given().queryParam("month", "2026-03").queryParam("groupBy", "team")
                .queryParam("tenant", "beta")
                .when().get(MONTHLY)
                .then().statusCode(200)
                .extract().asString();
        assertEquals(HEADER + MARCH + "'=1+1,NVIDIA-H100-80GB-HBM3,2.000000,4.100000,USD,8.20,test-7,"
                + POLICY_CELL + ",norm-2026.1,0.500000,1.500000,2.05,6.15,usage,,0.000000,,\r\n", byTeam);

        given().queryParam("month", "2026-03").queryParam("tenant", "nobody")
                .when().get(MONTHLY)
                .then().statusCode(200)
                .body(equalTo(MonthlyReportResourceTest.HEADER));
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
            "/api/v1/reports/weekly,  week=2026-W10&format=csv",
            "/api/v1/reports/weekly,  week=2026-W10&format=json&tenant=acme",
            "/api/v1/reports/monthly, month=2026-03&format=csv",
            "/api/v1/reports/monthly, month=2026-03&format=json&groupBy=team",
    })
    void bothReportsCarryTheHashOfTheirBytesAndRepeatThem(String path, String query)
            throws NoSuchAlgorithmException {
        Response first = given().get(path + "?" + query);
        Response second = given().get(path + "?" + query);
        first.then().statusCode(200);
        byte[] bytes = first.asByteArray();
        assertArrayEquals(bytes, second.asByteArray(), "the same ledger state gives the same bytes");
        String sha256 = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        assertEquals(sha256, first.header("X-Content-SHA256"));
        assertEquals("\"sha256-" + sha256 + "\"", first.header("ETag"));
        assertEquals(sha256, second.header("X-Content-SHA256"));

        given().header("If-None-Match", "\"sha256-" + sha256 + "\"").get(path + "?" + query)
                .then().statusCode(304).header("ETag", "\"sha256-" + sha256 + "\"");
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(nullValues = "NULL", value = {
            "week,     2026-W00, csv,  team,   NULL",
            "week,     2026-W54, csv,  team,   NULL",
            "week,     2027-W53, csv,  team,   NULL",
            "week,     2026-w10, csv,  team,   NULL",
            "week,     2026W10,  csv,  team,   NULL",
            "week,     2026-W1,  csv,  team,   NULL",
            "week,     2026-03,  csv,  team,   NULL",
            "week,     NULL,     csv,  team,   NULL",
            "format,   2026-W10, xml,  team,   NULL",
            "groupBy,  2026-W10, csv,  model,  NULL",
            "tenant,   2026-W10, csv,  team,   ' '",
            "tenant,   2026-W10, csv,  team,   'a	b'",
    })
    void badInputIsAProblemNamingTheField(String field, String week, String format, String groupBy,
                                          String tenant) {
        var request = given().queryParam("format", format).queryParam("groupBy", groupBy);
        if (week != null) {
            request.queryParam("week", week);
        }
        if (tenant != null) {
            request.queryParam("tenant", tenant);
        }
        request.when().get(WEEKLY)
                .then().statusCode(400)
                .contentType("application/problem+json")
                .body("status", equalTo(400))
                .body("field", equalTo(field))
                .body("detail", containsString(field));
    }

    @Test
    void aBlankTenantOnTheMonthlyReportIsRefusedToo() {
        given().queryParam("month", "2026-03").queryParam("tenant", "  ")
                .when().get(MONTHLY)
                .then().statusCode(400)
                .contentType("application/problem+json")
                .body("field", equalTo("tenant"));
    }
}
