package io.gpumeter.ledger.rest;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

/**
 * Pods deleted while no collector watched: a relist that no longer contains a held pod closes it at the time of
 * the relist, leaves the pods it contains open, and counts nothing twice when sent again.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class LivePodsResourceTest {

    static String pod(String uid, String namespace) {
        return "{\"uid\":\"" + uid + "\",\"namespace\":\"" + namespace + "\",\"name\":\"" + uid + "\",\"resourceVersion\":\"10\","
                + "\"type\":\"MODIFIED\",\"observedAt\":\"2026-10-01T08:00:00Z\",\"scheduledAt\":\"2026-10-01T08:00:00Z\","
                + "\"nodeName\":\"n1\",\"gpuResources\":{\"nvidia.com/gpu\":1}}";
    }

    static String liveSet(String rv, String uids, String namespaces) {
        return "{\"cluster\":\"relist\",\"resourceVersion\":\"" + rv + "\",\"observedAt\":\"2026-10-01T12:00:00Z\","
                + "\"namespaces\":" + namespaces + ",\"uids\":" + uids + "}";
    }

    @Test
    void aPodMissingFromTheRelistIsClosedWhenTheRelistSawItGone() {
        given().contentType(ContentType.JSON).body("{\"cluster\":\"relist\",\"pods\":[" + pod("kept", "ml") + ","
                + pod("gone", "ml") + "," + pod("elsewhere", "other") + "]}").post("/api/v1/facts").then().statusCode(200);

        // A relist of namespace ml only: "elsewhere" is outside it and must stay open.
        given().contentType(ContentType.JSON).body(liveSet("500", "[\"kept\"]", "[\"ml\"]"))
                .post("/api/v1/facts/live-pods").then().statusCode(200).body("accepted", equalTo(1));
        given().contentType(ContentType.JSON).body(liveSet("500", "[\"kept\"]", "[\"ml\"]"))
                .post("/api/v1/facts/live-pods").then().statusCode(200).body("accepted", equalTo(0));

        given().queryParam("at", "2026-10-01T11:00:00Z").queryParam("cluster", "relist").get("/api/v1/nodes/n1/occupants")
                .then().statusCode(200).body("pod", equalTo(List.of("gone", "kept", "elsewhere")))
                .body("find { it.pod == 'gone' }.until", equalTo("2026-10-01T12:00:00Z"))
                .body("find { it.pod == 'kept' }.until", nullValue());
        given().queryParam("at", "2026-10-01T13:00:00Z").queryParam("cluster", "relist").get("/api/v1/nodes/n1/occupants")
                .then().statusCode(200).body("pod", equalTo(List.of("kept", "elsewhere")));
    }

    @Test
    void aRelistWithoutItsVersionIsRefused() {
        given().contentType(ContentType.JSON).body("{\"cluster\":\"relist\",\"observedAt\":\"2026-10-01T12:00:00Z\",\"uids\":[]}")
                .post("/api/v1/facts/live-pods").then().statusCode(400).contentType("application/problem+json")
                .body("field", equalTo("resourceVersion"));
    }
}
