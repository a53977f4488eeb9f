package io.gpumeter.billing.rest;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.containsString;

/** The cost of any window, priced as the reports are. */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(LedgerStandIn.class)
class WindowCostResourceTest {

    private static final String COSTS = "/api/v1/costs";

    /*
     * The fake ledger's 2 to 9 March 2026 by team and model (rates H100 4.10, L40S 1.10), worked out by hand:
     * speech on H100: 1.25 h, none used: 1.25 x 4.10 = 5.125 -> 5.12 (half-even); idle 1.25 h costing 5.12.
     * vision on H100: 17.5 h, 11.2 used: 71.75, used 45.92, idle 6.3 h costing 25.83.
     * vision on L40S: 2 h, 2 used: 2.20, used 2.20, idle 0.
     */
    @Test
    void aWindowsAllocatedUsedAndIdleCostPerGroupAndModel() {
        given().queryParam("from", LedgerAnswers.WEEK_FROM).queryParam("to", LedgerAnswers.WEEK_TO)
                .queryParam("groupBy", "team")
                .when().get(COSTS)
                .then().statusCode(200)
                .body("groupBy", equalTo("team"))
                .body("currency", equalTo("USD"))
                .body("from", equalTo(LedgerAnswers.WEEK_FROM))
                .body("lines.size()", equalTo(3))
                .body("lines[0].group", equalTo("speech"))
                .body("lines[0].gpuModel", equalTo(LedgerAnswers.H100))
                .body("lines[0].allocatedCost", equalTo(5.12f))
                .body("lines[0].usedCost", equalTo(0f))
                .body("lines[0].idleCost", equalTo(5.12f))
                .body("lines[1].group", equalTo("vision"))
                .body("lines[1].gpuModel", equalTo(LedgerAnswers.H100))
                .body("lines[1].rate", equalTo(4.1f))
                .body("lines[1].allocatedGpuHours", equalTo(17.5f))
                .body("lines[1].usedGpuHours", equalTo(11.2f))
                .body("lines[1].idleGpuHours", equalTo(6.3f))
                .body("lines[1].allocatedCost", equalTo(71.75f))
                .body("lines[1].usedCost", equalTo(45.92f))
                .body("lines[1].idleCost", equalTo(25.83f))
                .body("lines[2].gpuModel", equalTo(LedgerAnswers.L40S))
                .body("lines[2].rate", equalTo(1.1f))
                .body("lines[2].allocatedCost", equalTo(2.2f))
                .body("lines[2].idleCost", equalTo(0f));
    }

    /*
     * The same week for one tenant, as a tenant token's request is confined to (the access filter sets tenant= to the
     * token's own): acme's lines only, worked out by hand from the fake ledger's week by tenant and team.
     * speech on H100: 1.25 h -> 5.12; vision on H100: 10.5 h x 4.10 = 43.05, 4.2 used -> 17.22, 6.3 idle -> 25.83;
     * vision on L40S: 2 h -> 2.20. beta's 7 h of vision on H100 are not there.
     */
    @Test
    void aTenantsWindowHasItsOwnLinesOnly() {
        given().queryParam("from", LedgerAnswers.WEEK_FROM).queryParam("to", LedgerAnswers.WEEK_TO)
                .queryParam("groupBy", "team").queryParam("tenant", "acme")
                .when().get(COSTS)
                .then().statusCode(200)
                .body(not(containsString("beta")))
                .body("lines.size()", equalTo(3))
                .body("lines.group", org.hamcrest.Matchers.contains("speech", "vision", "vision"))
                .body("lines[0].allocatedCost", equalTo(5.12f))
                .body("lines[1].allocatedGpuHours", equalTo(10.5f))
                .body("lines[1].allocatedCost", equalTo(43.05f))
                .body("lines[1].usedCost", equalTo(17.22f))
                .body("lines[1].idleCost", equalTo(25.83f))
                .body("lines[2].allocatedCost", equalTo(2.2f));
        given().queryParam("from", LedgerAnswers.WEEK_FROM).queryParam("to", LedgerAnswers.WEEK_TO)
                .queryParam("groupBy", "team").queryParam("tenant", "beta")
                .when().get(COSTS)
                .then().statusCode(200)
                .body("lines.size()", equalTo(1))
                .body("lines[0].allocatedGpuHours", equalTo(7f))
                .body("lines[0].allocatedCost", equalTo(28.7f))
                .body("lines[0].idleCost", equalTo(0f));
    }

    @Test
    void aWindowWithNothingHeldHasNoLines() {
        // the fake ledger holds nothing on 1 May 2026
        given().queryParam("from", "2026-05-01T00:00:00Z").queryParam("to", "2026-05-01T02:00:00Z")
                .queryParam("groupBy", "namespace")
                .when().get(COSTS)
                .then().statusCode(200)
                .body("groupBy", equalTo("namespace"))
                .body("lines.size()", equalTo(0));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "from=yesterday&to=2026-03-02T12:00:00Z|from",
            "from=2026-03-02T12:00:00Z&to=2026-03-02T10:00:00Z|to",
            "from=2025-01-01T00:00:00Z&to=2026-03-02T10:00:00Z|to",
            "from=2026-03-02T10:00:00Z&to=2026-03-02T12:00:00Z&groupBy=pod|groupBy",
    })
    void aBadWindowIsA400NamingTheField(String query, String field) {
        given().when().get(COSTS + "?" + query)
                .then().statusCode(400)
                .contentType("application/problem+json")
                .body("field", equalTo(field))
                .body("detail", not(containsString("Exception")));
    }
}
