package io.gpumeter.ledger.rest;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.path.json.config.JsonPathConfig;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Requested / allocated / used for tenant rq, worked out by hand: pod A asks for one card at 09:00, is scheduled
 * at 10:00 and finishes at 12:00 (requested 3 h, allocated 2 h); pod B asks for two cards at 09:30 and is deleted
 * at 10:30 without ever running (requested 2 h, allocated 0). Pod A's card, named by the exporter, is fully busy in
 * 10:00 and 10:01 and unmeasured after (used 120 s = 1/30 h). So 5 h asked, 2 h granted (0.4), 1/30 h used.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class ReconciliationResourceTest {

    static String pod(String uid, String rv, String type, String extra, String gpus) {
        return "{\"uid\":\"" + uid + "\",\"namespace\":\"rq\",\"name\":\"" + uid + "\",\"resourceVersion\":\"" + rv + "\","
                + "\"type\":\"" + type + "\",\"observedAt\":\"2026-09-01T12:00:00Z\"," + extra
                + "\"gpuResources\":{\"nvidia.com/gpu\":" + gpus + "}}";
    }

    @Test
    void requestedAllocatedAndUsedSideBySide() {
        String facts = "{\"cluster\":\"rec\",\"namespaces\":[{\"name\":\"rq\",\"resourceVersion\":\"1\",\"type\":\"ADDED\","
                + "\"observedAt\":\"2026-09-01T00:00:00Z\",\"labels\":{\"gpumeter.io/tenant\":\"rq\"}}],\"pods\":["
                + pod("a", "5", "MODIFIED", "\"createdAt\":\"2026-09-01T09:00:00Z\",\"scheduledAt\":\"2026-09-01T10:00:00Z\","
                + "\"nodeName\":\"n1\",\"allTerminated\":true,\"lastFinishedAt\":\"2026-09-01T12:00:00Z\",", "1") + ","
                + pod("b", "6", "ADDED", "\"createdAt\":\"2026-09-01T09:30:00Z\",", "2") + ","
                + pod("b", "9", "DELETED", "\"createdAt\":\"2026-09-01T09:30:00Z\",\"deletionTimestamp\":\"2026-09-01T10:30:00Z\",", "2")
                + "]}";
        given().contentType(ContentType.JSON).body(facts).post("/api/v1/facts").then().statusCode(200);
        String usage = "{\"cluster\":\"rec\",\"samples\":["
                + "{\"gpuUuid\":\"GPU-R1\",\"scope\":\"DEVICE\",\"scopeKey\":\"\",\"field\":\"SM_ACTIVE\",\"value\":1.0,"
                + "\"at\":\"2026-09-01T10:00:30Z\",\"namespace\":\"rq\",\"pod\":\"a\"},"
                + "{\"gpuUuid\":\"GPU-R1\",\"scope\":\"DEVICE\",\"scopeKey\":\"\",\"field\":\"SM_ACTIVE\",\"value\":1.0,"
                + "\"at\":\"2026-09-01T10:01:30Z\",\"namespace\":\"rq\",\"pod\":\"a\"}]}";
        given().contentType(ContentType.JSON).body(usage).post("/api/v1/usage").then().statusCode(200);

        JsonPath json = given().queryParam("from", "2026-09-01T00:00:00Z").queryParam("to", "2026-09-02T00:00:00Z")
                .queryParam("groupBy", "cluster,tenant").get("/api/v1/reconciliation").then().statusCode(200)
                .extract().jsonPath().using(new JsonPathConfig(JsonPathConfig.NumberReturnType.BIG_DECIMAL));
        String row = "find { it.key == 'rec/rq' }.";
        assertEquals(0, new BigDecimal("5").compareTo(number(json, row + "requestedGpuHours")));
        assertEquals(0, new BigDecimal("2").compareTo(number(json, row + "allocatedGpuHours")));
        BigDecimal used = number(json, row + "usedGpuHours");
        assertEquals(0, new BigDecimal("0.033333").compareTo(used.setScale(6, java.math.RoundingMode.HALF_EVEN)), used.toString());
        assertEquals(0, new BigDecimal("0.400000").compareTo(number(json, row + "allocatedOfRequested")));
        assertEquals(0, new BigDecimal("0.016667").compareTo(number(json, row + "usedOfAllocated")));
        assertEquals("rq", json.getString(row + "group.tenant"));
    }

    static BigDecimal number(JsonPath json, String path) {
        return new BigDecimal(json.getString(path));
    }

    @Test
    void groupingByWhatPodsDoNotCarryIsRefused() {
        given().queryParam("from", "2026-09-01T00:00:00Z").queryParam("to", "2026-09-02T00:00:00Z").queryParam("groupBy", "model")
                .get("/api/v1/reconciliation").then().statusCode(400).contentType("application/problem+json")
                .body("field", equalTo("groupBy"));
    }
}
