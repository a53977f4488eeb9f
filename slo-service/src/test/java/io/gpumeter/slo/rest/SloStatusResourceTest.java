package io.gpumeter.slo.rest;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.gpumeter.slo.rest.LatencyResourceTest.line;
import static io.gpumeter.slo.rest.LatencyResourceTest.post;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.hamcrest.Matchers.equalTo;

/**
 * Three SLOs over one service's hand-made hour. Requests (E2E ms):
 * 09:00  8 x 50, 2 x 200;  09:58  10 x 50;  09:59  5 x 50, 5 x 500, two of the 500s failed.
 * Evaluated at 10:00:30, so over the minutes starting in [09:00, 10:00).
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class SloStatusResourceTest {

    private static final String AT = "2026-06-01T10:00:30Z";

    private static boolean stored;

    @BeforeEach
    void storeAnHourOnce() {
        if (stored) {
            return;
        }
        stored = true;
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            lines.add(line("status", "p" + (i % 2), "2026-06-01T09:00:" + (10 + i) + "Z", null, i < 8 ? 50 : 200, true));
            lines.add(line("status", "p" + (i % 2), "2026-06-01T09:58:" + (10 + i) + "Z", null, 50, true));
            lines.add(line("status", "p" + (i % 2), "2026-06-01T09:59:" + (10 + i) + "Z", null, i < 5 ? 50 : 500,
                    i < 8));
        }
        post(String.join("\n", lines));
        SloResourceTest.create("""
                {"name": "status-requests", "selector": {"service": "status"}, "sli": "E2E",
                 "objective": {"percentile": 99, "thresholdMs": 100, "per": "REQUEST"}, "target": 0.9, "window": "PT1H"}""");
        SloResourceTest.create("""
                {"name": "status-up", "selector": {"service": "status"}, "sli": "AVAILABILITY",
                 "target": 0.99, "window": "PT1H"}""");
        SloResourceTest.create("""
                {"name": "status-minutes", "selector": {"service": "status"}, "sli": "E2E",
                 "objective": {"percentile": 90, "thresholdMs": 100, "per": "MINUTE"}, "target": 0.5, "window": "PT1H"}""");
    }

    private static void assertDecimal(String expected, JsonPath json, String path) {
        assertEquals(0, new BigDecimal(expected).compareTo(new BigDecimal(json.getString(path))),
                path + ": expected " + expected + ", got " + json.getString(path));
    }

    private static JsonPath status(String name) {
        return given().queryParam("at", AT).get(SloResourceTest.SLOS + "/" + name + "/status")
                .then().statusCode(200).extract().jsonPath();
    }

    @Test
    void perRequestLatencyBurnsFastEnoughForATicketOnly() {
        JsonPath s = status("status-requests");
        // 30 requests, 7 over 100 ms (2 at 09:00, 5 at 09:59): 23 / 30
        assertEquals("2026-06-01T09:00:00Z", s.getString("from"));
        assertEquals("2026-06-01T10:00:00Z", s.getString("to"));
        assertEquals(30, s.getLong("totalEvents"));
        assertEquals(23, s.getLong("goodEvents"));
        assertDecimal("0.766667", s, "attainment");
        assertEquals(false, s.getBoolean("meetsTarget"), "under its target of 0.9");
        // 0.1 x 30 = 3 bad allowed, 7 spent: 1 - 7/3
        assertDecimal("3", s, "errorBudget.allowedBad");
        assertDecimal("-1.333333", s, "errorBudget.remaining");
        // 5m and 30m: 09:58 and 09:59, 5 bad of 20 = 25% / 10% = 2.5x; 1h, 6h, 3d: 7/30 / 10% = 2.333333x
        assertDecimal("2.333333", s, "alerts[0].longWindow.burnRate");
        assertDecimal("2.5", s, "alerts[0].shortWindow.burnRate");
        assertEquals(List.of(false, false, true), s.getList("alerts.firing"));
        assertEquals("TICKET", s.getString("state"));
    }

    @Test
    void availabilityAtTenTimesTheBudgetInTheShortWindowPages() {
        JsonPath s = status("status-up");
        // 2 failed of 30: 28 / 30; 0.3 allowed: 1 - 2 / 0.3
        assertDecimal("0.933333", s, "attainment");
        assertDecimal("-5.666667", s, "errorBudget.remaining");
        // 5m and 30m: 2 of 20 = 10% / 1% = 10x; 1h and 6h: 2/30 / 1% = 6.666667x
        assertDecimal("10.000000", s, "alerts[1].shortWindow.burnRate");
        assertDecimal("6.666667", s, "alerts[1].longWindow.burnRate");
        // 14.4x needs both: 6.67 and 10 are short of it; 6x over 6h and 30m fires
        assertEquals(List.of(false, true, true), s.getList("alerts.firing"));
        assertEquals("PAGE", s.getString("state"));
    }

    @Test
    void perMinuteCountsMinutesWhosePercentileMeetsTheThreshold() {
        JsonPath s = status("status-minutes");
        // p90 is the 9th of 10: 09:00 200 ms (bad), 09:58 50 ms (good), 09:59 500 ms (bad)
        assertEquals(3, s.getLong("totalEvents"));
        assertEquals(1, s.getLong("goodEvents"));
        assertDecimal("0.333333", s, "attainment");
        // 0.5 x 3 = 1.5 allowed, 2 spent: 1 - 2 / 1.5
        assertDecimal("-0.333333", s, "errorBudget.remaining");
    }

    @Test
    void anSloWithoutRequestsInItsWindowHasNoData() {
        JsonPath s = given().queryParam("at", "2026-07-01T00:00:00Z")
                .get(SloResourceTest.SLOS + "/status-up/status").then().statusCode(200).extract().jsonPath();
        assertEquals("NO_DATA", s.getString("state"));
        assertEquals(0, s.getLong("totalEvents"));
        assertNull(s.getString("attainment"));
        assertNull(s.get("meetsTarget"), "no events, nothing to judge");
    }

    @Test
    void theStatesOfAllSlosAreEachOnesStatusAndItsServicesCurveInOneRead() {
        String from = "2026-06-01T09:00:00Z";
        String to = AT;
        JsonPath states = given().queryParam("from", from).queryParam("to", to).get("/api/v1/slo-states")
                .then().statusCode(200).extract().jsonPath();
        List<String> names = states.getList("slo.name");
        assertTrue(names.containsAll(List.of("status-minutes", "status-requests", "status-up")), names.toString());
        for (String name : List.of("status-minutes", "status-requests", "status-up")) {
            String at = "find { it.slo.name == '" + name + "' }";
            assertEquals(status(name).getMap(""), states.getMap(at + ".status"), name);
            assertEquals(given().get(SloResourceTest.SLOS + "/" + name).then().statusCode(200).extract().jsonPath()
                    .getMap(""), states.getMap(at + ".slo"), name);
        }
        Map<String, Object> curve = given().queryParam("service", "status").queryParam("from", from).queryParam("to", to)
                .queryParam("sli", "E2E").get("/api/v1/latency").then().statusCode(200).extract().jsonPath().getMap("");
        assertEquals(curve, states.getMap("find { it.slo.name == 'status-minutes' }.latency"));
        assertEquals(curve, states.getMap("find { it.slo.name == 'status-requests' }.latency"));
        assertEquals(3, states.getList("find { it.slo.name == 'status-minutes' }.latency.minutes").size());
        // availability has no latency curve
        assertNull(states.get("find { it.slo.name == 'status-up' }.latency"));
    }

    @Test
    void theBurnDownIsEachInstantsStatusFromOneRead() {
        // 09:00:30, 09:30:30 and 10:00:30: the budget left as the per-instant status answers it at each
        JsonPath states = given().queryParam("from", "2026-06-01T09:00:30Z").queryParam("to", AT).queryParam("budgetPoints", "3")
                .get("/api/v1/slo-states").then().statusCode(200).extract().jsonPath();
        String minutes = "find { it.slo.name == 'status-minutes' }.budgetLeft";
        assertEquals(List.of("2026-06-01T09:00:30Z", "2026-06-01T09:30:30Z", AT), states.getList(minutes + ".at"));
        for (int i = 0; i < 3; i++) {
            String at = states.getString(minutes + "[" + i + "].at");
            String expected = given().queryParam("at", at).get(SloResourceTest.SLOS + "/status-minutes/status").then().statusCode(200)
                    .extract().jsonPath().getString("errorBudget.remaining");
            assertEquals(new java.math.BigDecimal(expected), new java.math.BigDecimal(states.getString(minutes + "[" + i + "].remaining")), at);
        }
        // at the end: 1 - 2 / 1.5, as the status of the window's end says
        assertEquals(0, new java.math.BigDecimal("-0.333333").compareTo(new java.math.BigDecimal(states.getString(minutes + "[2].remaining"))));
        assertNull(given().queryParam("from", "2026-06-01T09:00:30Z").queryParam("to", AT).get("/api/v1/slo-states").then()
                .statusCode(200).extract().jsonPath().get("[0].budgetLeft"));
        given().queryParam("from", "2026-06-01T09:00:30Z").queryParam("to", AT).queryParam("budgetPoints", "1")
                .get("/api/v1/slo-states").then().statusCode(400).body("field", equalTo("budgetPoints"));
    }

    @Test
    void badStateParametersAreA400NamingTheField() {
        given().queryParam("to", AT).get("/api/v1/slo-states").then().statusCode(400)
                .contentType("application/problem+json").body("field", equalTo("from"));
        given().queryParam("from", AT).get("/api/v1/slo-states").then().statusCode(400).body("field", equalTo("to"));
        given().queryParam("from", AT).queryParam("to", "2026-06-01T09:00:00Z").get("/api/v1/slo-states").then()
                .statusCode(400).body("field", equalTo("to"));
        given().queryParam("from", "2026-05-01T00:00:00Z").queryParam("to", AT).get("/api/v1/slo-states").then()
                .statusCode(400).contentType("application/problem+json").body("field", equalTo("to"));
        given().queryParam("from", "yesterday").queryParam("to", AT).get("/api/v1/slo-states").then()
                .statusCode(400).body("field", equalTo("from"));
    }
}
