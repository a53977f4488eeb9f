package io.gpumeter.ledger.demand.rest;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.gpumeter.ledger.demand.rest.DemandFixture.A100_GFD;
import static io.gpumeter.ledger.demand.rest.DemandFixture.gpu;
import static io.gpumeter.ledger.demand.rest.DemandFixture.node;
import static io.gpumeter.ledger.demand.rest.DemandFixture.owner;
import static io.gpumeter.ledger.demand.rest.DemandFixture.ran;
import static io.gpumeter.ledger.demand.rest.DemandResourceTest.A100;
import static io.gpumeter.ledger.demand.rest.DemandResourceTest.BIG;
import static io.gpumeter.ledger.demand.rest.DemandResourceTest.assertDays;
import static io.gpumeter.ledger.demand.rest.DemandResourceTest.rows;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A class's hours added up over the stretches between its pods' starts and ends, in cluster "dmd-steps", window
 * [2 June, 5 June 2025) UTC, every figure by hand:
 * <pre>
 * inference, Deployment acme/web, one card each:
 *   w1 1 Jun 22:00 - 2 Jun 06:00   before the window until 00:00: 6 h on the 2nd
 *   w2 2 Jun 03:00 - 3 Jun 03:00   21 h on the 2nd (2 cards held 03:00-06:00 with w1), 3 h on the 3rd
 *   w3 3 Jun 12:00 - 6 Jun 00:00   past the window's end, counted up to it: 12 h on the 3rd, 24 h on the 4th
 *   days 27, 15, 24 = 66 h; 3 pods
 * batch, batch/Job nightly: n1 two cards 2 Jun 23:00 - 3 Jun 01:00: 2 h on the 2nd, 2 h on the 3rd, 1 pod
 * </pre>
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class DemandStepsTest {

    static final String CLUSTER = "dmd-steps";
    static final String D = "2025-06-0";

    static void post() {
        String labels = "{\"nvidia.com/gpu.product\":\"" + A100_GFD + "\",\"nvidia.com/gpu.memory\":\"81920\"}";
        String cards = String.join(",", gpu("GPU-ST1", A100_GFD, 1), gpu("GPU-ST2", A100_GFD, 1),
                gpu("GPU-ST3", A100_GFD, 1), gpu("GPU-ST4", A100_GFD, 1));
        String web = owner("Deployment", "web", "apps/v1");
        String card = "{\"nvidia.com/gpu\":1}";
        String pods = String.join(",",
                ran("st-w1", "acme", "st-a1", D + "1T22:00:00Z", D + "2T06:00:00Z", web, "{}", card, ""),
                ran("st-w2", "acme", "st-a1", D + "2T03:00:00Z", D + "3T03:00:00Z", web, "{}", card, ""),
                ran("st-w3", "acme", "st-a1", D + "3T12:00:00Z", D + "6T00:00:00Z", web, "{}", card, ""),
                ran("st-n1", "etl", "st-a1", D + "2T23:00:00Z", D + "3T01:00:00Z", owner("Job", "nightly", "batch/v1"),
                        "{}", "{\"nvidia.com/gpu\":2}", ""));
        String facts = "{\"cluster\":\"" + CLUSTER + "\",\"nodes\":[" + node("st-a1", labels, cards) + "],\"pods\":["
                + pods + "]}";
        given().contentType(ContentType.JSON).body(facts).post("/api/v1/facts").then().statusCode(200);
    }

    @Test
    void overlappingAndOpenSegmentsOfAClassAddUpDayByDay() {
        post();
        JsonPath json = new JsonPath(given().queryParam("from", "2025-06-02T00:00:00Z").queryParam("to", "2025-06-05T00:00:00Z")
                .queryParam("cluster", CLUSTER).get("/api/v1/demand").then().statusCode(200).extract().asString()).using(BIG);
        assertEquals(List.of(
                A100 + " | batch | owner batch/Job | whole | WHOLE | - | 1",
                A100 + " | inference | owner apps/Deployment | whole | WHOLE | acme/web | 3"), rows(json));
        assertEquals(List.of("2025-06-02", "2025-06-03", "2025-06-04"), json.getList("shapes[0].days.day"));
        assertDays(json, 0, "2", "2", "0");
        assertDays(json, 1, "27", "15", "24");
    }
}
