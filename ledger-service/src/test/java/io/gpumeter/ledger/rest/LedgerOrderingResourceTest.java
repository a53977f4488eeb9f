package io.gpumeter.ledger.rest;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Facts that arrive late or out of order correct the books without corrupting them. */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class LedgerOrderingResourceTest {

    static String pod(String cluster, String uid, String rv, String node, String extra, String resources) {
        return "{\"cluster\":\"" + cluster + "\",\"pods\":[{\"uid\":\"" + uid + "\",\"namespace\":\"ml\",\"name\":\"" + uid
                + "\",\"resourceVersion\":\"" + rv + "\",\"type\":\"MODIFIED\",\"observedAt\":\"2026-07-01T00:00:00Z\","
                + "\"scheduledAt\":\"2026-07-01T00:00:00Z\",\"nodeName\":\"" + node + "\"," + extra
                + "\"gpuResources\":" + resources + "}]}";
    }

    static String node(String cluster, String rv, String labels) {
        return "{\"cluster\":\"" + cluster + "\",\"nodes\":[{\"name\":\"n1\",\"resourceVersion\":\"" + rv
                + "\",\"type\":\"MODIFIED\",\"observedAt\":\"2026-07-05T00:00:00Z\",\"labels\":" + labels + "}]}";
    }

    static void post(String body) {
        given().contentType(ContentType.JSON).body(body).post("/api/v1/facts").then().statusCode(200);
    }

    static BigDecimal july(String cluster) {
        String hours = given().queryParam("from", "2026-07-01T00:00:00Z").queryParam("to", "2026-08-01T00:00:00Z")
                .queryParam("groupBy", "cluster").get("/api/v1/gpu-hours").then().statusCode(200).extract().jsonPath()
                .getString("find { it.key == '" + cluster + "' }.allocatedGpuHours");
        return hours == null ? BigDecimal.ZERO : new BigDecimal(hours);
    }

    @Test
    void anOlderVersionAfterTheNewerOneChangesNothing() {
        String finished = "\"allTerminated\":true,\"lastFinishedAt\":\"2026-07-01T05:00:00Z\",";
        post(pod("order", "late", "20", "n1", finished, "{\"nvidia.com/gpu\":2}"));
        post(pod("order", "late", "10", "n1", "", "{\"nvidia.com/gpu\":2}"));
        assertEquals(0, new BigDecimal("10").compareTo(july("order")));
        given().queryParam("at", "2026-07-01T06:00:00Z").queryParam("cluster", "order").get("/api/v1/nodes/n1/occupants")
                .then().statusCode(200).body("size()", equalTo(0));
    }

    @Test
    void aNodeLearnedLateReshapesTheUnitsItsPodsHold() {
        post(pod("late-node", "p", "5", "n1", "", "{\"nvidia.com/gpu\":1}"));
        given().queryParam("at", "2026-07-02T00:00:00Z").queryParam("cluster", "late-node").get("/api/v1/nodes/n1/occupants")
                .then().statusCode(200).body("[0].unit.kind", equalTo("WHOLE"));
        post(node("late-node", "7", "{\"nvidia.com/gpu.replicas\":\"4\",\"nvidia.com/gpu.sharing-strategy\":\"time-slicing\","
                + "\"nvidia.com/gpu.product\":\"NVIDIA-A100-SXM4-80GB\"}"));
        given().queryParam("at", "2026-07-02T00:00:00Z").queryParam("cluster", "late-node").get("/api/v1/nodes/n1/occupants")
                .then().statusCode(200).body("[0].unit.kind", equalTo("SHARED")).body("[0].fraction", equalTo(0.25f));
    }

    @Test
    void aFinishedAllocationKeepsTheCardItWasPricedWith() {
        post(node("history", "1", "{\"nvidia.com/gpu.product\":\"NVIDIA-A100-SXM4-80GB\"}"));
        String finished = "\"allTerminated\":true,\"lastFinishedAt\":\"2026-07-01T04:00:00Z\",";
        post(pod("history", "done", "9", "n1", finished, "{\"nvidia.com/gpu\":1}"));
        assertEquals(0, new BigDecimal("4").compareTo(july("history")));
        post(node("history", "30", "{\"nvidia.com/gpu.product\":\"NVIDIA-A100-SXM4-80GB\",\"nvidia.com/gpu.replicas\":\"4\"}"));
        assertEquals(0, new BigDecimal("4").compareTo(july("history")));
    }
}
