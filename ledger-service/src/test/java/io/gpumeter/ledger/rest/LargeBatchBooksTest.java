package io.gpumeter.ledger.rest;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.config.JsonPathConfig;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A bulk replay's batches are written and derived a slice at a time (5,000 rows per insert, 1,000 pods per
 * derivation) and re-derive pods from the facts just stored rather than reading them back. Across those seams the
 * books must stay exact: 2,600 pods, started in one batch and finished in the next, book exactly the hours worked out
 * here from their start and end; a replay of the first batch observed later stores nothing new and changes nothing.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class LargeBatchBooksTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant DAY = Instant.parse("2026-10-07T00:00:00Z");
    private static final int PODS = 2_600;
    private static final String CLUSTER = "large-batches";

    @Test
    void slicesAndFactsInHandBookExactly() throws Exception {
        List<Map<String, Object>> started = new ArrayList<>();
        List<Map<String, Object>> finished = new ArrayList<>();
        Map<String, Long> expectedSeconds = new TreeMap<>();
        for (int p = 0; p < PODS; p++) {
            String ns = "ns-" + (p % 7);
            Instant begin = DAY.plusSeconds(60L * (p % 600));
            long seconds = 300 + 37L * (p % 101);
            Instant end = begin.plusSeconds(seconds);
            String uid = "large-" + p;
            started.add(pod(uid, ns, 10 * p + 1, "ADDED", begin, begin, null, false, null));
            started.add(pod(uid, ns, 10 * p + 2, "MODIFIED", begin, begin, begin, false, null));
            finished.add(pod(uid, ns, 10 * p + 3, "MODIFIED", end, begin, begin, true, end));
            expectedSeconds.merge(ns, seconds, Long::sum);
        }
        List<Map<String, Object>> nodes = new ArrayList<>();
        for (int n = 0; n < 7; n++) {
            nodes.add(Map.of("name", "node-" + n, "resourceVersion", "n" + n, "type", "ADDED",
                    "observedAt", DAY.minusSeconds(3600).toString(),
                    "labels", Map.of("nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3"), "gpus", List.of()));
        }
        Map<String, Object> first = post(nodes, started);
        assertEquals(2 * PODS + 7, ((Number) first.get("accepted")).intValue());
        post(List.of(), finished);

        Map<String, BigDecimal> expected = new TreeMap<>();
        expectedSeconds.forEach((ns, s) -> expected.put(ns, BigDecimal.valueOf(s).divide(BigDecimal.valueOf(3600), 6, RoundingMode.HALF_EVEN)));
        assertHours(expected);

        // the same first half again, as a later replay would observe it: every fact a duplicate, the books unchanged
        List<Map<String, Object>> replayed = started.stream().map(f -> {
            Map<String, Object> again = new LinkedHashMap<>(f);
            again.put("observedAt", DAY.plusSeconds(86_400).toString());
            return (Map<String, Object>) again;
        }).toList();
        Map<String, Object> second = post(List.of(), replayed);
        assertEquals(0, ((Number) second.get("accepted")).intValue());
        assertEquals(2 * PODS, ((Number) second.get("duplicates")).intValue());
        assertHours(expected);
    }

    private static void assertHours(Map<String, BigDecimal> expected) {
        assertEquals(expected, hours());
    }

    private static Map<String, BigDecimal> hours() {
        List<Map<String, Object>> rows = given().queryParam("from", DAY.toString()).queryParam("to", DAY.plusSeconds(86_400).toString())
                .queryParam("groupBy", "cluster,namespace").queryParam("limit", 10_000)
                .get("/api/v1/gpu-hours").then().statusCode(200).extract()
                .jsonPath(new JsonPathConfig(JsonPathConfig.NumberReturnType.BIG_DECIMAL)).getList("$");
        Map<String, BigDecimal> out = new TreeMap<>();
        for (Map<String, Object> r : rows) { // the test database is shared: this cluster's rows only
            String key = (String) r.get("key");
            if (key.startsWith(CLUSTER + "/")) {
                out.put(key.substring(CLUSTER.length() + 1),
                        new BigDecimal(String.valueOf(r.get("allocatedGpuHours"))).setScale(6, RoundingMode.HALF_EVEN));
            }
        }
        return out;
    }

    private static Map<String, Object> post(List<Map<String, Object>> nodes, List<Map<String, Object>> pods) throws Exception {
        Map<String, Object> batch = new LinkedHashMap<>();
        batch.put("cluster", CLUSTER);
        batch.put("namespaces", List.of());
        batch.put("nodes", nodes);
        batch.put("pods", pods);
        return given().contentType(ContentType.JSON).body(JSON.writeValueAsString(batch)).post("/api/v1/facts")
                .then().statusCode(200).extract().jsonPath().getMap("$");
    }

    private static Map<String, Object> pod(String uid, String ns, int version, String type, Instant observed,
                                           Instant created, Instant scheduled, boolean terminated, Instant finished) {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("uid", uid);
        f.put("namespace", ns);
        f.put("name", uid);
        f.put("resourceVersion", String.valueOf(version));
        f.put("type", type);
        f.put("observedAt", observed.toString());
        f.put("createdAt", created.toString());
        if (scheduled != null) {
            f.put("scheduledAt", scheduled.toString());
            f.put("nodeName", "node-" + ns.substring(3));
        }
        f.put("phase", scheduled == null ? "Pending" : terminated ? "Succeeded" : "Running");
        f.put("allTerminated", terminated);
        if (finished != null) {
            f.put("lastFinishedAt", finished.toString());
        }
        f.put("gpuResources", Map.of("nvidia.com/gpu", 1));
        f.put("vgpus", List.of());
        return f;
    }
}
