package io.gpumeter.ledger.governance.rest;

import io.gpumeter.common.testing.Contract;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

/**
 * The incidents of a set of pods in one read, for cluster "podinc" (no other test writes there). Each pod runs its
 * main container from 00:00:30 on 2024-04-01, is OOM-killed once and runs again:
 * <pre>
 * ml/a-0     OOM-killed 02:00:00, running again 02:01:00: oom 02:00 -> 02:01, 60 s
 * ml/b-0     OOM-killed 03:00:00, running again 03:05:00: oom 03:00 -> 03:05, 300 s
 * other/c-0  OOM-killed 02:30:00, running again 02:31:00: not asked for, so never answered
 * </pre>
 * Asked for ml/a-0, ml/b-0 and ml/never-0 over [00:00, 04:00): a-0's then b-0's, by start; over [02:30, 04:00): b-0's.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class PodIncidentsResourceTest {

    private static boolean loaded;

    private static String pod(String namespace, String name) {
        return """
                {"uid":"u-%s","namespace":"%s","name":"%s","resourceVersion":"1","type":"ADDED","observedAt":"2024-04-01T00:00:01Z",
                 "createdAt":"2024-04-01T00:00:00Z","scheduledAt":"2024-04-01T00:00:00Z","nodeName":"gpu-1","phase":"Running",
                 "gpuResources":{"nvidia.com/gpu":1}}""".formatted(name, namespace, name);
    }

    /** The pod gone at 05:00, so that it holds its card in this test's hours only, not in every later window. */
    private static String deleted(String namespace, String name) {
        return """
                {"uid":"u-%s","namespace":"%s","name":"%s","resourceVersion":"9","type":"DELETED","observedAt":"2024-04-01T05:00:00Z",
                 "createdAt":"2024-04-01T00:00:00Z","scheduledAt":"2024-04-01T00:00:00Z","nodeName":"gpu-1","phase":"Running",
                 "deletionTimestamp":"2024-04-01T05:00:00Z","gpuResources":{"nvidia.com/gpu":1}}""".formatted(name, namespace, name);
    }

    private static String status(String namespace, String name, String rv, String observedAt, String state,
                                 String lastState, int restarts) {
        return """
                {"uid":"u-%s","namespace":"%s","name":"%s","resourceVersion":"%s","type":"MODIFIED","observedAt":"%s",
                 "createdAt":"2024-04-01T00:00:00Z","scheduledAt":"2024-04-01T00:00:00Z","nodeName":"gpu-1",
                 "schedulerName":"default-scheduler","phase":"Running","gpuResources":{"nvidia.com/gpu":1},
                 "containers":[{"name":"main","init":false,"restartCount":%d,"state":%s,"lastState":%s}]}"""
                .formatted(name, namespace, name, rv, observedAt, restarts, state, lastState);
    }

    /** The pod's versions: running, OOM-killed at {@code killed} and waiting, running again at {@code again}. */
    private static String oom(String namespace, String name, String killed, String again) {
        String lastState = "{\"state\":\"terminated\",\"reason\":\"OOMKilled\",\"exitCode\":137,"
                + "\"startedAt\":\"2024-04-01T00:00:30Z\",\"finishedAt\":\"" + killed + "\"}";
        return String.join(",",
                status(namespace, name, "2", "2024-04-01T00:00:31Z",
                        "{\"state\":\"running\",\"startedAt\":\"2024-04-01T00:00:30Z\"}", "null", 0),
                status(namespace, name, "3", killed, "{\"state\":\"waiting\",\"reason\":\"CrashLoopBackOff\"}",
                        lastState, 1),
                status(namespace, name, "4", again, "{\"state\":\"running\",\"startedAt\":\"" + again + "\"}",
                        lastState, 1));
    }

    @BeforeEach
    void load() {
        if (loaded) {
            return;
        }
        loaded = true;
        given().contentType(ContentType.JSON).body("{\"cluster\":\"podinc\",\"pods\":[" + pod("ml", "a-0") + ","
                + pod("ml", "b-0") + "," + pod("other", "c-0") + "," + deleted("ml", "a-0") + "," + deleted("ml", "b-0") + ","
                + deleted("other", "c-0") + "]}").post("/api/v1/facts").then().statusCode(200);
        given().contentType(ContentType.JSON).body("{\"cluster\":\"podinc\",\"podStatuses\":["
                        + oom("ml", "a-0", "2024-04-01T02:00:00Z", "2024-04-01T02:01:00Z") + ","
                        + oom("ml", "b-0", "2024-04-01T03:00:00Z", "2024-04-01T03:05:00Z") + ","
                        + oom("other", "c-0", "2024-04-01T02:30:00Z", "2024-04-01T02:31:00Z") + "]}")
                .post("/api/v1/facts/governance").then().statusCode(200);
    }

    private static ValidatableResponse read(String from, String to, String pods) {
        return given().contentType(ContentType.JSON).body("{\"from\":\"" + from + "\",\"to\":\"" + to
                + "\",\"cluster\":\"podinc\",\"pods\":" + pods + "}").post("/api/v1/failures/pod-incidents").then();
    }

    private static final String ASKED = "[{\"namespace\":\"ml\",\"pod\":\"a-0\"},{\"namespace\":\"ml\",\"pod\":\"b-0\"},"
            + "{\"namespace\":\"ml\",\"pod\":\"never-0\"}]";

    @Test
    void theIncidentsOfThePodsAskedForThatStartedInTheWindowByStart() {
        String answer = read("2024-04-01T00:00:00Z", "2024-04-01T04:00:00Z", ASKED).statusCode(200)
                .body("pod", equalTo(List.of("a-0", "b-0")))
                .body("namespace", equalTo(List.of("ml", "ml")))
                .body("cause", equalTo(List.of("oom", "oom")))
                .body("startedAt", equalTo(List.of("2024-04-01T02:00:00Z", "2024-04-01T03:00:00Z")))
                .body("recoveredAt", equalTo(List.of("2024-04-01T02:01:00Z", "2024-04-01T03:05:00Z")))
                .body("repairSeconds", equalTo(List.of(60, 300))).extract().asString();
        Contract.record("ledger", "pod-incidents", answer); // slo-service's acceptance runs count their pods' failures

        read("2024-04-01T02:30:00Z", "2024-04-01T04:00:00Z", ASKED).statusCode(200)
                .body("pod", equalTo(List.of("b-0")));
    }

    @Test
    void aBadReadIsA400NamingTheField() {
        read("2024-04-01T00:00:00Z", "2024-04-01T04:00:00Z", "[{\"namespace\":\"ml\"}]").statusCode(400)
                .contentType("application/problem+json").body("field", equalTo("pods[0].pod"));
        read("2024-04-01T00:00:00Z", "2024-04-01T04:00:00Z", "[]").statusCode(400).body("field", equalTo("pods"));
        read("yesterday", "2024-04-01T04:00:00Z", ASKED).statusCode(400).body("field", equalTo("from"));
        read("2024-04-01T04:00:00Z", "2024-04-01T00:00:00Z", ASKED).statusCode(400).body("field", equalTo("to"));
    }
}
