package io.gpumeter.ledger.rest;

import io.gpumeter.common.testing.Contract;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertEquals;

@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class LedgerResourceTest {

    /**
     * One H100 node (physical 81920 MiB by label; HAMi registers a scaled 163840) shared by two HAMi pods:
     * p1 (cores 30, 8192 MiB -> 0.3 card) runs 10:00-12:00 and p2 (cores 0, 20480 MiB -> 0.25 card) runs 11:00
     * until a forced delete at 13:30. Tenant label of namespace ml changes from acme to globex at 12:30.
     */
    static final String BATCH = """
            {"cluster":"lab",
             "namespaces":[
              {"name":"ml","uid":"ns1","resourceVersion":"1","type":"ADDED","observedAt":"2026-05-01T00:00:00Z",
               "labels":{"gpumeter.io/tenant":"acme"},"labelTimes":{"gpumeter.io/tenant":"2026-04-01T00:00:00Z"}},
              {"name":"ml","uid":"ns1","resourceVersion":"50","type":"MODIFIED","observedAt":"2026-05-03T14:00:00Z",
               "labels":{"gpumeter.io/tenant":"globex"},"labelTimes":{"gpumeter.io/tenant":"2026-05-03T12:30:00Z"}}],
             "nodes":[
              {"name":"gpu-node-1","uid":"n1","resourceVersion":"2","type":"ADDED","observedAt":"2026-05-01T00:00:00Z",
               "labels":{"nvidia.com/gpu.product":"NVIDIA-H100-80GB-HBM3","nvidia.com/gpu.memory":"81920"},
               "gpus":[{"uuid":"GPU-aaaa","model":"NVIDIA-H100-80GB-HBM3","memoryMib":163840,"cores":100,"splitCount":10}]}],
             "pods":[
              {"uid":"p1","namespace":"ml","name":"train-1","resourceVersion":"10","type":"MODIFIED","observedAt":"2026-05-03T10:00:01Z",
               "scheduledAt":"2026-05-03T10:00:00Z","nodeName":"gpu-node-1","owner":{"kind":"Deployment","name":"trainer"},
               "gpuResources":{"nvidia.com/gpu":1,"nvidia.com/gpumem":8192,"nvidia.com/gpucores":30},
               "vgpus":[{"container":0,"uuid":"GPU-aaaa","type":"NVIDIA","memoryMib":8192,"cores":30}],"hamiBindPhase":"success","hamiNode":"gpu-node-1"},
              {"uid":"p1","namespace":"ml","name":"train-1","resourceVersion":"20","type":"MODIFIED","observedAt":"2026-05-03T12:00:01Z",
               "scheduledAt":"2026-05-03T10:00:00Z","nodeName":"gpu-node-1","allTerminated":true,"lastFinishedAt":"2026-05-03T12:00:00Z",
               "owner":{"kind":"Deployment","name":"trainer"},
               "gpuResources":{"nvidia.com/gpu":1,"nvidia.com/gpumem":8192,"nvidia.com/gpucores":30},
               "vgpus":[{"container":0,"uuid":"GPU-aaaa","type":"NVIDIA","memoryMib":8192,"cores":30}],"hamiBindPhase":"success","hamiNode":"gpu-node-1"},
              {"uid":"p2","namespace":"ml","name":"infer-1","resourceVersion":"15","type":"MODIFIED","observedAt":"2026-05-03T11:00:01Z",
               "scheduledAt":"2026-05-03T11:00:00Z","nodeName":"gpu-node-1",
               "gpuResources":{"nvidia.com/gpu":1,"nvidia.com/gpumem":20480},
               "vgpus":[{"container":0,"uuid":"GPU-aaaa","type":"NVIDIA","memoryMib":20480,"cores":0}],"hamiBindPhase":"success","hamiNode":"gpu-node-1"},
              {"uid":"p2","namespace":"ml","name":"infer-1","resourceVersion":"60","type":"DELETED","observedAt":"2026-05-03T13:30:02Z",
               "scheduledAt":"2026-05-03T11:00:00Z","nodeName":"gpu-node-1","deletionTimestamp":"2026-05-03T13:30:00Z",
               "gpuResources":{"nvidia.com/gpu":1,"nvidia.com/gpumem":20480},
               "vgpus":[{"container":0,"uuid":"GPU-aaaa","type":"NVIDIA","memoryMib":20480,"cores":0}],"hamiBindPhase":"success","hamiNode":"gpu-node-1"}]}
            """;

    private static boolean loaded;

    @BeforeEach
    void load() {
        if (loaded) {
            return;
        }
        loaded = true;
        given().contentType(ContentType.JSON).body(BATCH).post("/api/v1/facts").then().statusCode(200);
    }

    @ParameterizedTest(name = "at {0}: {1}")
    @CsvSource({
            "2026-05-03T09:59:59Z, ''",
            "2026-05-03T10:30:00Z, train-1",
            "2026-05-03T11:30:00Z, train-1;infer-1",
            "2026-05-03T12:00:00Z, infer-1",
            "2026-05-03T13:29:59Z, infer-1",
            "2026-05-03T13:30:00Z, ''",
    })
    void occupantsOfTheSharedCard(String at, String pods) {
        List<String> expected = pods.isEmpty() ? List.of() : List.of(pods.split(";"));
        List<String> actual = given().queryParam("at", at).get("/api/v1/gpus/GPU-aaaa/occupants")
                .then().statusCode(200).extract().jsonPath().getList("pod");
        assertEquals(expected, actual);
    }

    /** Every report prints the policy in words and its version; billing reads it from this answer. */
    @Test
    void theNormalizationPolicyIsToldInWordsWithItsVersion() {
        String answer = given().get("/api/v1/normalization").then().statusCode(200)
                .body("version", equalTo("v1"))
                .body("policy", containsString("vgpu=min(1,max(cores/100,memMiB/cardMiB))")).extract().asString();
        Contract.record("ledger", "normalization", answer);
    }

    @Test
    void occupantCarriesOwnerUnitAndAttributionAsOfTheInstant() {
        given().queryParam("at", "2026-05-03T12:45:00Z").get("/api/v1/gpus/GPU-aaaa/occupants").then()
                .statusCode(200)
                .body("[0].cluster", equalTo("lab"))
                .body("[0].podUid", equalTo("p2"))
                .body("[0].tenant", equalTo("globex"))
                .body("[0].unit.kind", equalTo("VGPU"))
                .body("[0].unit.cores", equalTo(0))
                .body("[0].unit.memoryMiB", equalTo(20480))
                .body("[0].fraction", equalTo(0.25f))
                .body("[0].since", equalTo("2026-05-03T11:00:00Z"));
        given().queryParam("at", "2026-05-03T10:30:00Z").get("/api/v1/gpus/GPU-aaaa/occupants").then()
                .body("[0].owner.kind", equalTo("Deployment"))
                .body("[0].owner.name", equalTo("trainer"))
                .body("[0].tenant", equalTo("acme"));
    }

    @Test
    void nodeOccupants() {
        given().queryParam("at", "2026-05-03T11:30:00Z").get("/api/v1/nodes/gpu-node-1/occupants").then()
                .statusCode(200).body("pod", contains("train-1", "infer-1"));
        given().queryParam("at", "2026-05-04T00:00:00Z").get("/api/v1/nodes/gpu-node-1/occupants").then()
                .statusCode(200).body("$", empty());
    }

    @Test
    void gpuHoursPerTenantAreExactAndSplitAtTheRelabel() {
        // acme: p1 2h x 0.3 = 0.6, p2 11:00-12:30 1.5h x 0.25 = 0.375 -> 0.975; globex: p2 12:30-13:30 1h x 0.25.
        Map<String, BigDecimal> hours = hours("2026-05-01T00:00:00Z", "2026-06-01T00:00:00Z", "tenant");
        assertEquals(0, new BigDecimal("0.975").compareTo(hours.get("acme")), hours.toString());
        assertEquals(0, new BigDecimal("0.25").compareTo(hours.get("globex")), hours.toString());
    }

    @Test
    void gpuHoursClipToTheWindow() {
        // [11:30, 12:45): p1 0.5h x 0.3 = 0.15 (acme); p2 1h acme x 0.25 + 0.25h globex x 0.25.
        Map<String, BigDecimal> hours = hours("2026-05-03T11:30:00Z", "2026-05-03T12:45:00Z", "tenant");
        assertEquals(0, new BigDecimal("0.4").compareTo(hours.get("acme")), hours.toString());
        assertEquals(0, new BigDecimal("0.0625").compareTo(hours.get("globex")), hours.toString());
    }

    @Test
    void groupByTwoDimensions() {
        given().queryParam("from", "2026-05-01T00:00:00Z").queryParam("to", "2026-06-01T00:00:00Z")
                .queryParam("groupBy", "cluster,model").get("/api/v1/gpu-hours").then().statusCode(200)
                .body("$", hasSize(1))
                .body("[0].group.cluster", equalTo("lab"))
                .body("[0].group.model", equalTo("NVIDIA-H100-80GB-HBM3"))
                .body("[0].key", equalTo("lab/NVIDIA-H100-80GB-HBM3"));
    }

    @Test
    void theSameBatchTwiceIsStoredOnce() {
        given().contentType(ContentType.JSON).body(BATCH).post("/api/v1/facts").then().statusCode(200)
                .body("accepted", equalTo(0)).body("duplicates", equalTo(7));
        Map<String, BigDecimal> hours = hours("2026-05-01T00:00:00Z", "2026-06-01T00:00:00Z", "tenant");
        assertEquals(0, new BigDecimal("0.975").compareTo(hours.get("acme")));
    }

    @Test
    void unknownGpuIsNotFound() {
        given().get("/api/v1/gpus/GPU-none/occupants").then().statusCode(404)
                .contentType("application/problem+json").body("field", equalTo("uuid"));
        given().get("/api/v1/nodes/nowhere/occupants").then().statusCode(404)
                .contentType("application/problem+json").body("field", equalTo("node"));
    }

    @ParameterizedTest(name = "{0} -> {1} on {2}")
    @CsvSource(delimiter = '|', value = {
            "/api/v1/gpus/GPU-aaaa/occupants?at=yesterday | 400 | at",
            "/api/v1/gpus/GPU-aaaa/occupants?at=2026-05-03T10:00:00 | 400 | at",
            "/api/v1/nodes/gpu-node-1/occupants?at=2026-13-01T00:00:00Z | 400 | at",
            "/api/v1/gpu-hours?to=2026-06-01T00:00:00Z | 400 | from",
            "/api/v1/gpu-hours?from=2026-05-01T00:00:00Z | 400 | to",
            "/api/v1/gpu-hours?from=2026-06-01T00:00:00Z&to=2026-05-01T00:00:00Z | 400 | to",
            "/api/v1/gpu-hours?from=2024-01-01T00:00:00Z&to=2026-05-01T00:00:00Z | 400 | to",
            "/api/v1/gpu-hours?from=2026-05-01T00:00:00Z&to=2026-06-01T00:00:00Z&groupBy=color | 400 | groupBy",
            "/api/v1/gpu-hours?from=2026-05-01T00:00:00Z&to=2026-06-01T00:00:00Z&groupBy=tenant,tenant | 400 | groupBy",
    })
    void badQueriesAreProblems(String url, int status, String field) {
        given().urlEncodingEnabled(false).get(url).then().statusCode(status)
                .contentType("application/problem+json").body("field", equalTo(field)).body("status", equalTo(status));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "no cluster | {\"pods\":[]} | cluster",
            "bad cluster | {\"cluster\":\"Lab_1\"} | cluster",
            "pod without uid | {\"cluster\":\"lab\",\"pods\":[{\"namespace\":\"ml\",\"name\":\"x\",\"resourceVersion\":\"1\",\"type\":\"ADDED\",\"observedAt\":\"2026-05-01T00:00:00Z\"}]} | pods[0].uid",
            "node without time | {\"cluster\":\"lab\",\"nodes\":[{\"name\":\"n\",\"resourceVersion\":\"1\",\"type\":\"ADDED\"}]} | nodes[0].observedAt",
            "bad event type | {\"cluster\":\"lab\",\"pods\":[{\"uid\":\"u\",\"type\":\"CHANGED\"}]} | pods[0].type",
            "not json | {\"cluster\": | ",
    })
    void badBatchesAreRefusedWhole(String name, String body, String field) {
        var response = given().contentType(ContentType.JSON).body(body).post("/api/v1/facts").then().statusCode(400)
                .contentType("application/problem+json").body("detail", containsString(""));
        if (field != null && !field.isBlank()) {
            response.body("field", equalTo(field));
        }
    }

    private static Map<String, BigDecimal> hours(String from, String to, String groupBy) {
        List<Map<String, Object>> rows = given().queryParam("from", from).queryParam("to", to).queryParam("groupBy", groupBy)
                .get("/api/v1/gpu-hours").then().statusCode(200).extract().jsonPath().getList("$");
        Map<String, BigDecimal> out = new java.util.TreeMap<>();
        rows.forEach(r -> out.put((String) r.get("key"), new BigDecimal(String.valueOf(r.get("allocatedGpuHours")))));
        return out;
    }
}
