package io.gpumeter.ledger.governance.rest;

import io.gpumeter.common.testing.Contract;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.gpumeter.ledger.governance.rest.GovernanceResourceTest.get;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.nullValue;

/**
 * The queues a pod went through, on its scheduling decision. Cluster "pq":
 * <pre>
 * LocalQueue serve/lq-serve   version 3 fed cq-old, version 7 (newest) feeds cq-serve
 * PodGroup   ml-train/train-pg (Volcano) in queue research-q
 * serve/chat-0     label kueue.x-k8s.io/queue-name=lq-serve        -> cq-serve, lq-serve, no Volcano queue
 *                  (created 2024-05-02T23:58:30Z, first seen and observed 2024-05-03T00:00:00Z like the others)
 * serve/orphan-0   label kueue.x-k8s.io/queue-name=lq-gone         -> LocalQueue the ledger never saw: lq-gone only
 * ml-train/train-0 annotation scheduling.k8s.io/group-name=train-pg -> Volcano queue research-q only
 * serve/plain-0    neither                                          -> no queue
 * serve/gang-0     a coscheduling pod group no Volcano PodGroup has -> no queue
 * </pre>
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class PodQueueResourceTest {

    private static boolean loaded;

    static String localQueue(String rv, String observedAt, String clusterQueue) {
        return """
                {"kind":"LOCAL_QUEUE","namespace":"serve","name":"lq-serve","uid":"lq-serve","resourceVersion":"%s","type":"MODIFIED",
                 "observedAt":"%s","clusterQueue":"%s"}""".formatted(rv, observedAt, clusterQueue);
    }

    static String pod(String namespace, String name, String scheduler, String groupName, String queueName) {
        return pod(namespace, name, scheduler, groupName, queueName, "2024-05-03T00:00:00Z");
    }

    /** A pod version observed at 2024-05-03T00:00:00Z, created at {@code createdAt}, scheduled at 00:00:05. */
    static String pod(String namespace, String name, String scheduler, String groupName, String queueName,
                      String createdAt) {
        return """
                {"uid":"uid-%s","namespace":"%s","name":"%s","resourceVersion":"4","type":"MODIFIED","observedAt":"2024-05-03T00:00:00Z",
                 "createdAt":"%s","scheduledAt":"2024-05-03T00:00:05Z","nodeName":"gpu-1","schedulerName":"%s",
                 "phase":"Running","groupName":%s,"queueName":%s,"gpuResources":{"nvidia.com/gpu":1}}"""
                .formatted(name, namespace, name, createdAt, scheduler, quoted(groupName), quoted(queueName));
    }

    private static String quoted(String s) {
        return s == null ? "null" : "\"" + s + "\"";
    }

    @BeforeEach
    void load() {
        if (loaded) {
            return;
        }
        loaded = true;
        String batch = "{\"cluster\":\"pq\",\"queueObjects\":["
                + localQueue("3", "2024-05-01T00:00:00Z", "cq-old") + ","
                + localQueue("7", "2024-05-02T00:00:00Z", "cq-serve") + "],"
                + """
                "podGroups":[{"uid":"pg-train","namespace":"ml-train","name":"train-pg","resourceVersion":"2","type":"ADDED",
                  "observedAt":"2024-05-03T00:00:00Z","createdAt":"2024-05-02T23:59:00Z","queue":"research-q","minMember":1,
                  "phase":"Running"}],
                "podStatuses":["""
                + pod("serve", "chat-0", "default-scheduler", null, "lq-serve", "2024-05-02T23:58:30Z") + ","
                + pod("serve", "orphan-0", "default-scheduler", null, "lq-gone") + ","
                + pod("ml-train", "train-0", "volcano", "train-pg", null) + ","
                + pod("serve", "plain-0", "default-scheduler", null, null) + ","
                + pod("serve", "gang-0", "scheduler-plugins-scheduler", "gang-pg", null) + "]}";
        given().contentType(ContentType.JSON).body(batch).post("/api/v1/facts/governance").then().statusCode(200)
                .body("accepted", equalTo(2 + 1 + 5));
    }

    private static io.restassured.response.ValidatableResponse decision(String namespace, String pod) {
        return get("/api/v1/scheduling-decisions", Map.of("namespace", namespace, "pod", pod, "cluster", "pq"))
                .statusCode(200).body("kind", equalTo("Pod")).body("name", equalTo(pod));
    }

    @Test
    void aKueuePodNamesItsLocalQueueAndTheClusterQueueItsNewestVersionFeeds() {
        decision("serve", "chat-0")
                .body("createdAt", equalTo("2024-05-02T23:58:30Z"))
                .body("queue.clusterQueue", equalTo("cq-serve"))
                .body("queue.localQueue", equalTo("lq-serve"))
                .body("queue", hasKey("volcanoQueue")).body("queue.volcanoQueue", nullValue());
    }

    @Test
    void aLocalQueueTheLedgerNeverSawLeavesTheClusterQueueUnknown() {
        decision("serve", "orphan-0")
                .body("queue.clusterQueue", nullValue())
                .body("queue.localQueue", equalTo("lq-gone"))
                .body("queue.volcanoQueue", nullValue());
    }

    @Test
    void aVolcanoPodNamesTheQueueOfItsPodGroup() {
        decision("ml-train", "train-0")
                .body("queue.clusterQueue", nullValue())
                .body("queue.localQueue", nullValue())
                .body("queue.volcanoQueue", equalTo("research-q"));
    }

    @Test
    void aPodThatWentThroughNoQueueCarriesNone() {
        decision("serve", "plain-0").body("$", hasKey("queue")).body("queue", nullValue());
        // a coscheduling gang is not a Volcano queue
        decision("serve", "gang-0").body("queue", nullValue());
    }

    @Test
    void aSetOfPodsGetsEachPodsQueueInOneReadInTheOrderAsked() {
        String body = """
                {"cluster":"pq","pods":[{"namespace":"ml-train","pod":"train-0"},{"namespace":"serve","pod":"chat-0"},
                 {"namespace":"serve","pod":"never-seen"},{"namespace":"serve","pod":"plain-0"},
                 {"namespace":"serve","pod":"chat-0"},{"namespace":"serve","pod":"orphan-0"}]}""";
        String example = given().contentType(ContentType.JSON).body(body).post("/api/v1/pod-queues").then().statusCode(200)
                // one entry per pod, in the order asked, a repeat answered once
                .body("pod", contains("train-0", "chat-0", "never-seen", "plain-0", "orphan-0"))
                .body("known", contains(true, true, false, true, true))
                .body("[0].queue.volcanoQueue", equalTo("research-q"))
                .body("[1].queue.clusterQueue", equalTo("cq-serve")).body("[1].queue.localQueue", equalTo("lq-serve"))
                .body("[2].queue", nullValue())
                .body("[3].queue", nullValue())
                .body("[4].queue.clusterQueue", nullValue()).body("[4].queue.localQueue", equalTo("lq-gone"))
                // each pod's creation, where its start-up is measured from; none for a pod the ledger never saw
                .body("[1].createdAt", equalTo("2024-05-02T23:58:30Z"))
                .body("[3].createdAt", equalTo("2024-05-03T00:00:00Z"))
                .body("[2].createdAt", nullValue()).extract().asString();
        // slo-service reads where each pod queued, and when it was created, from this answer
        Contract.record("ledger", "pod-queues", example);
    }

    @Test
    void aBadPodSetIsA400NamingTheField() {
        refused("{}", "pods");
        refused("{\"pods\":[]}", "pods");
        refused("{\"pods\":[null]}", "pods[0]");
        refused("{\"pods\":[{\"namespace\":\"serve\"}]}", "pods[0].pod");
        refused("{\"pods\":[{\"namespace\":\"serve\",\"pod\":\"a\"},{\"namespace\":\" \",\"pod\":\"b\"}]}",
                "pods[1].namespace");
        StringBuilder many = new StringBuilder("{\"pods\":[");
        for (int i = 0; i <= SchedulingDecisionResource.MAX_PODS; i++) {
            many.append(i == 0 ? "" : ",").append("{\"namespace\":\"n\",\"pod\":\"p").append(i).append("\"}");
        }
        refused(many.append("]}").toString(), "pods");
    }

    private static void refused(String body, String field) {
        given().contentType(ContentType.JSON).body(body).post("/api/v1/pod-queues").then().statusCode(400)
                .contentType("application/problem+json").body("field", equalTo(field));
    }
}
