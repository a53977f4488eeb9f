package io.gpumeter.ledger.governance.rest;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.gpumeter.ledger.governance.rest.GovernanceResourceTest.get;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;

/**
 * Kueue's visibility API positions beside what waits. Cluster "pos": Workloads w-p1 (created 09:00) and w-p2
 * (created 09:30) wait in LocalQueue lq-p of ClusterQueue cq-p. Read at 10:00: w-p2 first (priority 100), w-p1
 * second; read at 10:01: w-p1 first, w-p2 second. A Workload Kueue listed that the ledger does not hold as
 * pending (w-gone) shows nowhere.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class PendingPositionResourceTest {

    private static boolean loaded;

    static String workload(String name, String created) {
        return """
                {"uid":"%s","namespace":"research","name":"%s","resourceVersion":"1","type":"ADDED","observedAt":"2024-04-01T09:59:00Z",
                 "apiVersion":"kueue.x-k8s.io/v1beta2","createdAt":"%s","queueName":"lq-p","active":true,
                 "podSets":[{"name":"main","count":1,"requests":{"nvidia.com/gpu":1}}],"conditions":[]}
                """.formatted(name, name, created);
    }

    static String position(String workload, int priority, int inCq, int inLq, String at) {
        return """
                {"clusterQueue":"cq-p","namespace":"research","workload":"%s","localQueue":"lq-p","priority":%d,
                 "positionInClusterQueue":%d,"positionInLocalQueue":%d,"observedAt":"%s"}""".formatted(workload, priority, inCq, inLq, at);
    }

    static final String POSITIONS = "{\"cluster\":\"pos\",\"pendingPositions\":["
            + position("w-p2", 100, 0, 0, "2024-04-01T10:00:00Z") + ","
            + position("w-p1", 0, 1, 1, "2024-04-01T10:00:00Z") + ","
            + position("w-p1", 0, 0, 0, "2024-04-01T10:01:00Z") + ","
            + position("w-p2", 100, 1, 1, "2024-04-01T10:01:00Z") + ","
            + position("w-gone", 0, 2, 2, "2024-04-01T10:01:00Z") + "]}";

    @BeforeEach
    void load() {
        if (loaded) {
            return;
        }
        loaded = true;
        String facts = "{\"cluster\":\"pos\",\"workloads\":[" + workload("w-p1", "2024-04-01T09:00:00Z") + ","
                + workload("w-p2", "2024-04-01T09:30:00Z") + "],\"queueObjects\":[{\"kind\":\"LOCAL_QUEUE\",\"namespace\":\"research\","
                + "\"name\":\"lq-p\",\"uid\":\"lq-p\",\"resourceVersion\":\"1\",\"type\":\"ADDED\",\"observedAt\":\"2024-04-01T00:00:00Z\","
                + "\"clusterQueue\":\"cq-p\"}]}";
        given().contentType(ContentType.JSON).body(facts).post("/api/v1/facts/governance").then().statusCode(200);
        given().contentType(ContentType.JSON).body(POSITIONS).post("/api/v1/facts/governance").then().statusCode(200)
                .body("accepted", equalTo(5)).body("duplicates", equalTo(0));
    }

    @Test
    void pendingWorkloadsShowTheirLatestPosition() {
        get("/api/v1/queue-wait/pending", Map.of("cluster", "pos", "at", "2024-04-01T10:30:00Z")).statusCode(200)
                .body("$", hasSize(2))
                .body("[0].name", equalTo("w-p1")).body("[0].ageSeconds", equalTo(5400))
                .body("[0].positionInClusterQueue", equalTo(0)).body("[0].positionInLocalQueue", equalTo(0))
                .body("[0].priority", equalTo(0)).body("[0].positionObservedAt", equalTo("2024-04-01T10:01:00Z"))
                .body("[1].name", equalTo("w-p2")).body("[1].positionInClusterQueue", equalTo(1))
                .body("[1].priority", equalTo(100)).body("[1].clusterQueue", equalTo("cq-p"));
    }

    @Test
    void aPositionSentTwiceIsStoredOnce() {
        given().contentType(ContentType.JSON).body(POSITIONS).post("/api/v1/facts/governance").then().statusCode(200)
                .body("accepted", equalTo(0)).body("duplicates", equalTo(5));
    }

    @Test
    void badPositionsAreRefusedWholeNamingTheField() {
        String negative = "{\"cluster\":\"pos\",\"pendingPositions\":[" + position("w-p1", 0, 5, 0, "2024-04-01T10:02:00Z") + ","
                + position("w-p2", 0, -1, 0, "2024-04-01T10:02:00Z") + "]}";
        given().contentType(ContentType.JSON).body(negative).post("/api/v1/facts/governance").then().statusCode(400)
                .contentType("application/problem+json").body("field", equalTo("pendingPositions[1].positionInClusterQueue"));
        String nameless = "{\"cluster\":\"pos\",\"pendingPositions\":[{\"clusterQueue\":\"cq-p\",\"namespace\":\"research\","
                + "\"positionInClusterQueue\":0,\"observedAt\":\"2024-04-01T10:02:00Z\"}]}";
        given().contentType(ContentType.JSON).body(nameless).post("/api/v1/facts/governance").then().statusCode(400)
                .body("field", equalTo("pendingPositions[0].workload"));
        // Nothing of the refused batches was stored: w-p1 is still first as read at 10:01.
        get("/api/v1/queue-wait/pending", Map.of("cluster", "pos", "at", "2024-04-01T10:30:00Z")).statusCode(200)
                .body("[0].positionInClusterQueue", equalTo(0)).body("[0].positionObservedAt", equalTo("2024-04-01T10:01:00Z"));
    }

    @Test
    void onlyWhatTheLedgerHoldsAsPendingIsListed() {
        get("/api/v1/queue-wait/pending", Map.of("cluster", "gov-none", "at", "2024-04-01T10:30:00Z")).statusCode(200)
                .body("$", hasSize(0));
        get("/api/v1/queue-wait/pending", Map.of("cluster", "pos", "at", "2024-04-01T10:30:00Z")).statusCode(200)
                .body("find { it.name == 'w-gone' }", nullValue());
    }
}
