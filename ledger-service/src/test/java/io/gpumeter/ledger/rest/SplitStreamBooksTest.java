package io.gpumeter.ledger.rest;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Property: the books do not depend on how a stream of facts is ordered or cut into requests. A generated cluster
 * (Pending pods asking for MIG slices, whole cards and HAMi shares; pods that arrive before their node, HAMi grants
 * among them waiting for its registration; a relabelled namespace; pods that finish or are deleted) is stored once
 * as one batch, and again, for each seed, shuffled and cut
 * at random points into several requests under another cluster name; allocated and requested GPU-hours per
 * namespace and tenant, and each node's occupants at several instants, must be the same.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class SplitStreamBooksTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant DAY = Instant.parse("2026-11-03T00:00:00Z");
    private static final String[] RESOURCES = {"nvidia.com/gpu", "nvidia.com/mig-1g.10gb", "nvidia.com/mig-3g.40gb",
            "hami", "nvidia.com/mig-2g.20gb"};

    @Test
    void anyOrderAndAnyCutGiveTheSameBooks() throws Exception {
        List<Map<String, Object>> facts = generate(new Random(20261103));
        post("split-whole", facts);
        Books expected = books("split-whole");
        assertFalse(expected.allocated().isEmpty(), "the generated stream books something");
        assertFalse(expected.requested().isEmpty());
        for (int seed = 1; seed <= 12; seed++) {
            Random random = new Random(seed);
            List<Map<String, Object>> shuffled = new ArrayList<>(facts);
            Collections.shuffle(shuffled, random);
            int cuts = 1 + random.nextInt(8);
            List<Integer> points = new ArrayList<>();
            for (int i = 0; i < cuts; i++) {
                points.add(1 + random.nextInt(shuffled.size() - 1));
            }
            points.add(0);
            points.add(shuffled.size());
            Collections.sort(points);
            String cluster = "cut-" + seed;
            for (int i = 0; i + 1 < points.size(); i++) {
                post(cluster, shuffled.subList(points.get(i), points.get(i + 1)));
            }
            assertEquals(expected, books(cluster), "seed " + seed + " cut at " + points);
        }
    }

    /** The books of one cluster, keyed without the cluster so two clusters compare. */
    record Books(Map<String, BigDecimal> allocated, Map<String, BigDecimal> requested, Map<String, String> occupants) {
    }

    private static Books books(String cluster) {
        Map<String, BigDecimal> allocated = hours("/api/v1/gpu-hours", cluster, "allocatedGpuHours");
        Map<String, BigDecimal> requested = hours("/api/v1/reconciliation", cluster, "requestedGpuHours");
        Map<String, String> occupants = new TreeMap<>();
        for (String node : List.of("mig-node", "plain-node", "hami-node")) {
            for (int hour = 8; hour <= 20; hour += 3) {
                List<Map<String, Object>> rows = given().queryParam("cluster", cluster)
                        .queryParam("at", DAY.plusSeconds(hour * 3600L + 60).toString())
                        .get("/api/v1/nodes/" + node + "/occupants").then().statusCode(200).extract().jsonPath().getList("$");
                List<String> seen = new ArrayList<>();
                rows.forEach(r -> seen.add(r.get("pod") + ":" + r.get("fraction") + ":" + ((Map<?, ?>) r.get("unit")).get("source")));
                Collections.sort(seen);
                occupants.put(node + "@" + hour, String.join(",", seen));
            }
        }
        return new Books(allocated, requested, occupants);
    }

    private static Map<String, BigDecimal> hours(String path, String cluster, String field) {
        List<Map<String, Object>> rows = given().queryParam("from", DAY.toString()).queryParam("to", DAY.plusSeconds(86_400).toString())
                .queryParam("groupBy", "cluster,namespace,tenant").queryParam("limit", 10_000).get(path).then().statusCode(200)
                .extract().jsonPath().getList("$");
        Map<String, BigDecimal> out = new TreeMap<>();
        for (Map<String, Object> row : rows) {
            String key = (String) row.get("key");
            if (key.startsWith(cluster + "/")) {
                out.put(key.substring(cluster.length() + 1),
                        new BigDecimal(String.valueOf(row.get(field))).setScale(9, java.math.RoundingMode.HALF_EVEN));
            }
        }
        return out;
    }

    private static void post(String cluster, List<Map<String, Object>> facts) throws Exception {
        Map<String, Object> batch = new LinkedHashMap<>();
        batch.put("cluster", cluster);
        batch.put("namespaces", facts.stream().filter(f -> f.get("kind").equals("ns")).map(SplitStreamBooksTest::bare).toList());
        batch.put("nodes", facts.stream().filter(f -> f.get("kind").equals("node")).map(SplitStreamBooksTest::bare).toList());
        batch.put("pods", facts.stream().filter(f -> f.get("kind").equals("pod")).map(SplitStreamBooksTest::bare).toList());
        given().contentType(ContentType.JSON).body(JSON.writeValueAsString(batch)).post("/api/v1/facts").then().statusCode(200);
    }

    private static Map<String, Object> bare(Map<String, Object> fact) {
        Map<String, Object> out = new LinkedHashMap<>(fact);
        out.remove("kind");
        return out;
    }

    private static List<Map<String, Object>> generate(Random random) {
        List<Map<String, Object>> facts = new ArrayList<>();
        facts.add(namespace("team-a", "1", DAY.minusSeconds(86_400), "acme"));
        facts.add(namespace("team-b", "2", DAY.minusSeconds(86_400), "globex"));
        // team-b moves to initech at noon
        facts.add(namespace("team-b", "3", DAY.plusSeconds(12 * 3600), "initech"));
        facts.add(node("mig-node", "4", Map.of("nvidia.com/gpu.product", "NVIDIA-A30", "nvidia.com/mig.strategy", "mixed"),
                List.of()));
        facts.add(node("plain-node", "5", Map.of("nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3"), List.of()));
        facts.add(node("hami-node", "6", Map.of("nvidia.com/gpu.product", "NVIDIA-A100-SXM4-80GB"),
                List.of(Map.of("uuid", "GPU-HAMI-1", "model", "NVIDIA-A100-SXM4-80GB", "memoryMib", 81920, "cores", 100,
                        "splitCount", 4))));
        int version = 100;
        for (int p = 0; p < 24; p++) {
            String uid = "pod-" + p;
            String ns = p % 2 == 0 ? "team-a" : "team-b";
            String resource = RESOURCES[random.nextInt(RESOURCES.length)];
            boolean hami = resource.equals("hami");
            String node = hami ? "hami-node" : resource.contains("mig") ? "mig-node" : "plain-node";
            Instant created = DAY.plusSeconds(random.nextInt(20 * 3600));
            Instant scheduled = created.plusSeconds(random.nextInt(3 * 3600));
            Map<String, Object> gpu = hami
                    ? Map.of("nvidia.com/gpu", 1, "nvidia.com/gpucores", 25, "nvidia.com/gpumem", 10240)
                    : Map.of(resource, 1 + random.nextInt(2));
            List<Map<String, Object>> vgpus = hami
                    ? List.of(Map.of("container", 0, "uuid", "GPU-HAMI-1", "type", "NVIDIA", "memoryMib", 10240, "cores", 25))
                    : List.of();
            facts.add(pod(uid, ns, String.valueOf(version++), "ADDED", created, created, null, null, gpu, List.of(), false, null));
            int fate = random.nextInt(4);
            if (fate == 0) {
                continue; // still Pending
            }
            facts.add(pod(uid, ns, String.valueOf(version++), "MODIFIED", scheduled, created, scheduled, node, gpu, vgpus,
                    false, null));
            Instant finished = scheduled.plusSeconds(600 + random.nextInt(6 * 3600));
            if (fate >= 2) {
                facts.add(pod(uid, ns, String.valueOf(version++), "MODIFIED", finished, created, scheduled, node, gpu,
                        vgpus, true, finished));
            }
            if (fate == 3) {
                facts.add(pod(uid, ns, String.valueOf(version++), "DELETED", finished.plusSeconds(30), created, scheduled,
                        node, gpu, vgpus, true, finished));
            }
        }
        return facts;
    }

    private static Map<String, Object> namespace(String name, String version, Instant at, String tenant) {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("kind", "ns");
        f.put("name", name);
        f.put("resourceVersion", version);
        f.put("type", "MODIFIED");
        f.put("observedAt", at.toString());
        f.put("labels", Map.of("gpumeter.io/tenant", tenant));
        return f;
    }

    private static Map<String, Object> node(String name, String version, Map<String, String> labels, List<Map<String, Object>> gpus) {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("kind", "node");
        f.put("name", name);
        f.put("resourceVersion", version);
        f.put("type", "ADDED");
        f.put("observedAt", DAY.minusSeconds(3600).toString());
        f.put("labels", labels);
        f.put("gpus", gpus);
        return f;
    }

    private static Map<String, Object> pod(String uid, String ns, String version, String type, Instant observed,
                                           Instant created, Instant scheduled, String node, Map<String, Object> gpu,
                                           List<Map<String, Object>> vgpus, boolean terminated, Instant finished) {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("kind", "pod");
        f.put("uid", uid);
        f.put("namespace", ns);
        f.put("name", uid);
        f.put("resourceVersion", version);
        f.put("type", type);
        f.put("observedAt", observed.toString());
        f.put("createdAt", created.toString());
        if (scheduled != null) {
            f.put("scheduledAt", scheduled.toString());
            f.put("nodeName", node);
        }
        f.put("phase", scheduled == null ? "Pending" : terminated ? "Succeeded" : "Running");
        f.put("allTerminated", terminated);
        if (finished != null) {
            f.put("lastFinishedAt", finished.toString());
        }
        f.put("gpuResources", gpu);
        f.put("vgpus", vgpus);
        if (!vgpus.isEmpty()) {
            // what HAMi writes once it has bound the pod's devices on its node
            f.put("hamiBindPhase", "success");
            f.put("hamiNode", node);
        }
        return f;
    }
}
