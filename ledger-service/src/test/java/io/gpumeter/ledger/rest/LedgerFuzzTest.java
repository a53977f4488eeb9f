package io.gpumeter.ledger.rest;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.gpumeter.common.testing.Fuzz;
import io.gpumeter.common.testing.Management;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Seeded hostile batches, byte-level and structural, against every intake of the ledger (pod facts, live-pod
 * relists, governance facts, usage) and every read that takes a body (pods' and cards' holdings, usage series): 2xx
 * or a 4xx problem document that names no code, never a 5xx; a refused batch stores nothing; the service stays up.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class LedgerFuzzTest {

    private static final int CASES = Fuzz.cases();

    static String pod(String uid) {
        return "{\"uid\":\"" + uid + "\",\"namespace\":\"fz\",\"name\":\"" + uid + "\",\"resourceVersion\":\"10\","
                + "\"type\":\"MODIFIED\",\"observedAt\":\"2026-10-01T08:00:00Z\",\"scheduledAt\":\"2026-10-01T08:00:00Z\","
                + "\"nodeName\":\"fz-n1\",\"gpuResources\":{\"nvidia.com/gpu\":1,\"nvidia.com/gpumem\":8192,\"nvidia.com/gpucores\":30},"
                + "\"vgpus\":[{\"container\":0,\"uuid\":\"GPU-FZ\",\"type\":\"NVIDIA\",\"memoryMib\":8192,\"cores\":30}],"
                + "\"hamiBindPhase\":\"success\",\"hamiNode\":\"fz-n1\"}";
    }

    @Test
    void podFacts() {
        fuzz("pod facts", "/api/v1/facts", 51L, List.of(
                "{\"cluster\":\"fz\",\"pods\":[" + pod("fz-1") + "," + pod("fz-2") + "]}",
                "{\"cluster\":\"fz\",\"pods\":[" + pod("fz-3") + "]}"));
    }

    @Test
    void livePodRelists() {
        fuzz("live pods", "/api/v1/facts/live-pods", 52L, List.of(
                "{\"cluster\":\"fz\",\"resourceVersion\":\"500\",\"observedAt\":\"2026-10-01T12:00:00Z\","
                        + "\"namespaces\":[\"fz\"],\"uids\":[\"fz-1\"]}",
                "{\"cluster\":\"fz\",\"resourceVersion\":\"501\",\"observedAt\":\"2026-10-01T12:00:00Z\",\"uids\":[]}"));
    }

    @Test
    void governanceFacts() {
        String workload = """
                {"uid":"fz-w1","namespace":"fz","name":"fz-w1","resourceVersion":"3","type":"MODIFIED","observedAt":"2024-03-01T00:00:00Z",
                 "apiVersion":"kueue.x-k8s.io/v1beta1","createdAt":"2024-02-10T00:00:00Z","queueName":"lq-a","active":true,
                 "podSets":[{"name":"main","count":1,"requests":{"nvidia.com/gpu":1}}],"clusterQueue":"cq-fz","conditions":[
                 {"type":"Admitted","status":"True","reason":"Admitted","message":"admitted","lastTransitionTime":"2024-02-10T00:05:00Z"}]}""";
        fuzz("governance", "/api/v1/facts/governance", 53L, List.of(
                "{\"cluster\":\"fz\",\"workloads\":[" + workload + "]}", "{\"cluster\":\"fz\"}"));
    }

    @Test
    void usageSamplesAndPartials() {
        fuzz("usage", "/api/v1/usage", 54L, List.of(
                UsageResourceTest.batch("fz", UsageResourceTest.sample("GPU-FZ", "SM_ACTIVE", 0.5, "2026-07-01T10:00:00Z", "fz-1"),
                        UsageResourceTest.sample("GPU-FZ", "GPU_UTIL", 40, "2026-07-01T10:00:15Z", null)),
                UsageResourceTest.partials("fz", UsageResourceTest.partial("GPU-FZ", "2026-07-01T10:01:00Z", "0,15000",
                        "0.25,0.75", "fz-1"))));
    }

    @Test
    void holdingsReads() {
        fuzz("holdings", "/api/v1/holdings", 55L, List.of(
                "{\"from\":\"2026-10-01T08:00:00Z\",\"to\":\"2026-10-01T10:00:00Z\",\"cluster\":\"fz\","
                        + "\"pods\":[{\"namespace\":\"fz\",\"pod\":\"fz-1\"},{\"namespace\":\"fz\",\"pod\":\"fz-2\"}]}",
                "{\"from\":\"2026-10-01T08:00:00Z\",\"to\":\"2026-10-02T08:00:00Z\",\"pods\":[{\"namespace\":\"fz\",\"pod\":\"x\"}]}"));
    }

    @Test
    void cardHoldingsReads() {
        fuzz("card holdings", "/api/v1/card-holdings", 57L, List.of(
                "{\"from\":\"2026-10-01T08:00:00Z\",\"to\":\"2026-10-01T10:00:00Z\",\"cluster\":\"fz\",\"gpus\":[\"GPU-FZ\"]}",
                "{\"from\":\"2026-10-01T08:00:00Z\",\"to\":\"2026-10-02T08:00:00Z\",\"gpus\":[\"GPU-FZ\",\"GPU-FZ2\"]}"));
    }

    @Test
    void podQueuesReads() {
        fuzz("pod queues", "/api/v1/pod-queues", 58L, List.of(
                "{\"cluster\":\"fz\",\"pods\":[{\"namespace\":\"fz\",\"pod\":\"a\"}]}",
                "{\"pods\":[{\"namespace\":\"fz\",\"pod\":\"a\"},{\"namespace\":\"fz\",\"pod\":\"b\"}]}"));
    }

    @Test
    void usageSeriesReads() {
        fuzz("usage series", "/api/v1/usage/series", 56L, List.of(
                "{\"from\":\"2026-07-01T10:00:00Z\",\"to\":\"2026-07-01T11:00:00Z\",\"gpus\":[\"GPU-FZ\",\"GPU-FZ2\"]}",
                "{\"from\":\"2026-07-01T10:00:00Z\",\"to\":\"2026-07-01T11:00:00Z\",\"field\":\"SM_ACTIVE\",\"gpus\":[\"GPU-FZ\"]}"));
    }

    @Test
    void hostMinutesAndHostSeriesReads() {
        fuzz("host minutes", "/api/v1/host/minutes", 59L, List.of(
                HostResourceTest.batch("fz", HostResourceTest.container("fz-1", "main", "2026-07-01T10:00:00Z", 60_000, 2, 3),
                        HostResourceTest.node("fz-n1", "2026-07-01T10:00:00Z", 30_000, 1)),
                HostResourceTest.batch("fz", "", HostResourceTest.node("fz-n1", "2026-07-01T10:01:00Z", 60_000, 0.5))));
        fuzz("host series", "/api/v1/host/series", 60L, List.of(
                "{\"cluster\":\"fz\",\"from\":\"2026-07-01T10:00:00Z\",\"to\":\"2026-07-01T11:00:00Z\",\"pods\":[\"ml/fz-1\"]}",
                "{\"cluster\":\"fz\",\"from\":\"2026-07-01T10:00:00Z\",\"to\":\"2026-07-01T11:00:00Z\",\"nodes\":[\"fz-n1\"]}"));
    }

    private static void fuzz(String what, String path, long seed, List<String> seeds) {
        Map<Integer, Integer> statuses = Fuzz.json(seed, seeds).overHttp(what, CASES, body -> {
            Response r = given().contentType("application/json").body(body).post(path);
            return new Fuzz.Answer(r.statusCode(), r.contentType(), r.asString());
        }, LedgerFuzzTest::stored);
        Management.given().get("/q/health/live").then().statusCode(200);
        assertEquals(CASES, statuses.values().stream().mapToInt(Integer::intValue).sum());
        assertTrue(statuses.keySet().stream().anyMatch(s -> s < 300), what + ": the valid seeds are accepted");
        assertTrue(statuses.keySet().stream().anyMatch(s -> s >= 400), what + ": hostile variants are refused");
    }

    /** What the fuzzed batches can have stored: the node's occupants, the card's usage, the queue's waits. */
    private static String stored() {
        return given().queryParam("at", "2026-10-01T09:00:00Z").queryParam("cluster", "fz")
                .get("/api/v1/nodes/fz-n1/occupants").asString()
                + given().queryParam("from", "2026-07-01T00:00:00Z").queryParam("to", "2026-07-02T00:00:00Z")
                .queryParam("field", "SM_ACTIVE").get("/api/v1/gpus/GPU-FZ/usage").asString()
                + given().queryParams(Map.of("from", "2024-02-01T00:00:00Z", "to", "2024-03-01T00:00:00Z",
                        "groupBy", "clusterQueue", "cluster", "fz")).get("/api/v1/queue-wait").asString();
    }
}
