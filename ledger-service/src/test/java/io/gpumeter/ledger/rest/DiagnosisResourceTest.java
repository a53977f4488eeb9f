package io.gpumeter.ledger.rest;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.path.json.config.JsonPathConfig;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The triad read per card, per pod and across the fleet, on series whose answers are worked out by hand
 * (thresholds: first column and SM high at 0.5; DRAM low under 0.2, high at 0.5):
 * <pre>
 * GPU-D1 (device series, GR_ENGINE_ACTIVE):
 *   10:00  GR 0.9            SM 0.2  DRAM 0.8  -> high/low/high   BANDWIDTH_BOUND
 *   10:01  GR 0.8, 1.0       SM 0.7  DRAM 0.3  -> high/high/mid   COMPUTE_BOUND
 *   10:02  GR 0.05           SM 0.0  DRAM 0.0  -> low/low/low     IDLE
 *   window: GR 2.75/4 = 0.6875, SM 0.9/3 = 0.3, DRAM 1.1/3 = 0.366667 -> high/low/mid: UNMATCHED
 *   pod d-solo (HAMi, 10:00-10:02): minutes 10:00, 10:01 -> GR 2.7/3 = 0.9, SM 0.45, DRAM 0.55: BANDWIDTH_BOUND
 *   pod d-pair (HAMi, 10:01-10:03): minutes 10:01, 10:02 -> GR 1.85/3 = 0.616667, SM 0.35, DRAM 0.15: BUSY_NOT_WORKING
 *   both held the card during 10:01, so both read the card's series as shared
 * GPU-D2: GPU_UTIL 0.95 (no GR_ENGINE_ACTIVE), SM 0.8, DRAM 0.1 -> COMPUTE_BOUND from GPU_UTIL
 * GPU-D3: GR 0.02, DRAM 0.01, no SM_ACTIVE -> IDLE (SM cannot exceed the engine)
 * GPU-D4: GR 0.9, DRAM 0.9, no SM_ACTIVE -> INSUFFICIENT_DATA, missing SM_ACTIVE
 * GPU-DM (MIG, no device series): pod d-mig on instance 3 (1g.10gb): GR 0.9, SM 0.9, DRAM 0.1 -> COMPUTE_BOUND
 * fleet of cluster diag: D1 UNMATCHED, D2 COMPUTE_BOUND, D3 IDLE, D4 INSUFFICIENT_DATA (DM has no device series)
 * </pre>
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class DiagnosisResourceTest {

    static final String FROM = "2026-08-10T10:00:00Z";
    static final String TO = "2026-08-10T11:00:00Z";
    private static boolean loaded;

    static String pod(String uid, String node, String start, String end, String resources, String vgpus) {
        return "{\"uid\":\"" + uid + "\",\"namespace\":\"dg\",\"name\":\"" + uid + "\",\"resourceVersion\":\"2\","
                + "\"type\":\"MODIFIED\",\"observedAt\":\"" + end + "\",\"scheduledAt\":\"" + start + "\",\"nodeName\":\"" + node + "\","
                + "\"allTerminated\":true,\"lastFinishedAt\":\"" + end + "\",\"gpuResources\":" + resources + ",\"vgpus\":" + vgpus
                + ("[]".equals(vgpus) ? "" : ",\"hamiBindPhase\":\"success\",\"hamiNode\":\"" + node + "\"") + "}";
    }

    static String vgpu(String uuid, long memory, int cores) {
        return "[{\"container\":0,\"uuid\":\"" + uuid + "\",\"type\":\"NVIDIA\",\"memoryMib\":" + memory + ",\"cores\":" + cores + "}]";
    }

    /** What a pod asks HAMi for to be granted one vGPU of this memory and these cores. */
    static String hami(long memory, int cores) {
        return "{\"nvidia.com/gpu\":1,\"nvidia.com/gpumem\":" + memory + ",\"nvidia.com/gpucores\":" + cores + "}";
    }

    static String sample(String gpu, String field, double value, String at) {
        return "{\"gpuUuid\":\"" + gpu + "\",\"scope\":\"DEVICE\",\"scopeKey\":\"\",\"field\":\"" + field + "\",\"value\":" + value
                + ",\"at\":\"2026-08-10T" + at + "Z\"}";
    }

    static String migSample(String field, double value) {
        return "{\"gpuUuid\":\"GPU-DM\",\"scope\":\"MIG_INSTANCE\",\"scopeKey\":\"3\",\"migProfile\":\"1g.10gb\",\"namespace\":\"dg\","
                + "\"pod\":\"d-mig\",\"field\":\"" + field + "\",\"value\":" + value + ",\"at\":\"2026-08-10T10:00:10Z\"}";
    }

    @BeforeEach
    void load() {
        if (loaded) {
            return;
        }
        loaded = true;
        String facts = "{\"cluster\":\"diag\",\"namespaces\":[{\"name\":\"dg\",\"resourceVersion\":\"1\",\"type\":\"ADDED\","
                + "\"observedAt\":\"2026-08-01T00:00:00Z\",\"labels\":{\"gpumeter.io/tenant\":\"dg\"}}],"
                + "\"nodes\":[{\"name\":\"dn1\",\"resourceVersion\":\"1\",\"type\":\"ADDED\",\"observedAt\":\"2026-08-01T00:00:00Z\","
                + "\"labels\":{\"nvidia.com/gpu.product\":\"NVIDIA-H100-80GB-HBM3\",\"nvidia.com/gpu.memory\":\"81920\"},"
                + "\"gpus\":[{\"uuid\":\"GPU-D1\",\"model\":\"NVIDIA-H100-80GB-HBM3\",\"memoryMib\":81920,\"cores\":100,\"splitCount\":4},"
                + "{\"uuid\":\"GPU-D2\",\"model\":\"NVIDIA-H100-80GB-HBM3\",\"memoryMib\":81920,\"cores\":100,\"splitCount\":4}]},"
                + "{\"name\":\"dn2\",\"resourceVersion\":\"1\",\"type\":\"ADDED\",\"observedAt\":\"2026-08-01T00:00:00Z\","
                + "\"labels\":{\"nvidia.com/gpu.product\":\"NVIDIA-A100-SXM4-80GB\",\"nvidia.com/mig.strategy\":\"mixed\"}}],"
                + "\"pods\":["
                + pod("d-solo", "dn1", "2026-08-10T10:00:00Z", "2026-08-10T10:02:00Z", hami(20480, 30), vgpu("GPU-D1", 20480, 30)) + ","
                + pod("d-pair", "dn1", "2026-08-10T10:01:00Z", "2026-08-10T10:03:00Z", hami(20480, 20), vgpu("GPU-D1", 20480, 20)) + ","
                + pod("d-alone", "dn1", "2026-08-10T10:00:00Z", "2026-08-10T10:02:00Z", hami(81920, 100), vgpu("GPU-D2", 81920, 100)) + ","
                + pod("d-mig", "dn2", "2026-08-10T10:00:00Z", "2026-08-10T10:02:00Z", "{\"nvidia.com/mig-1g.10gb\":1}", "[]") + "]}";
        given().contentType(ContentType.JSON).body(facts).post("/api/v1/facts").then().statusCode(200);
        String usage = "{\"cluster\":\"diag\",\"samples\":["
                + String.join(",",
                sample("GPU-D1", "GR_ENGINE_ACTIVE", 0.9, "10:00:10"), sample("GPU-D1", "SM_ACTIVE", 0.2, "10:00:10"),
                sample("GPU-D1", "DRAM_ACTIVE", 0.8, "10:00:10"), sample("GPU-D1", "GPU_UTIL", 0.1, "10:00:10"),
                sample("GPU-D1", "GR_ENGINE_ACTIVE", 0.8, "10:01:10"), sample("GPU-D1", "GR_ENGINE_ACTIVE", 1.0, "10:01:40"),
                sample("GPU-D1", "SM_ACTIVE", 0.7, "10:01:10"), sample("GPU-D1", "DRAM_ACTIVE", 0.3, "10:01:10"),
                sample("GPU-D1", "GR_ENGINE_ACTIVE", 0.05, "10:02:10"), sample("GPU-D1", "SM_ACTIVE", 0.0, "10:02:10"),
                sample("GPU-D1", "DRAM_ACTIVE", 0.0, "10:02:10"),
                sample("GPU-D2", "GPU_UTIL", 0.95, "10:00:10"), sample("GPU-D2", "SM_ACTIVE", 0.8, "10:00:10"),
                sample("GPU-D2", "DRAM_ACTIVE", 0.1, "10:00:10"),
                sample("GPU-D3", "GR_ENGINE_ACTIVE", 0.02, "10:00:10"), sample("GPU-D3", "DRAM_ACTIVE", 0.01, "10:00:10"),
                sample("GPU-D4", "GR_ENGINE_ACTIVE", 0.9, "10:00:10"), sample("GPU-D4", "DRAM_ACTIVE", 0.9, "10:00:10"),
                migSample("GR_ENGINE_ACTIVE", 0.9), migSample("SM_ACTIVE", 0.9), migSample("DRAM_ACTIVE", 0.1))
                + "]}";
        given().contentType(ContentType.JSON).body(usage).post("/api/v1/usage").then().statusCode(200);
    }

    static JsonPath diagnosis(String uuid) {
        return given().queryParam("from", FROM).queryParam("to", TO).get("/api/v1/gpus/" + uuid + "/diagnosis")
                .then().statusCode(200).extract().jsonPath()
                .using(new JsonPathConfig(JsonPathConfig.NumberReturnType.DOUBLE));
    }

    @Test
    void theCardReadsItsWindowMeansAndEachMinute() {
        JsonPath json = diagnosis("GPU-D1");
        assertEquals("GPU-D1", json.getString("gpuUuid"));
        assertEquals(0.5, json.getDouble("thresholds.engineHigh"));
        assertEquals("GR_ENGINE_ACTIVE", json.getString("card.window.firstColumn"));
        assertEquals(0.6875, json.getDouble("card.window.firstColumnMean"));
        assertEquals(0.3, json.getDouble("card.window.smActiveMean"));
        assertEquals(0.366667, json.getDouble("card.window.dramActiveMean"));
        assertEquals(Map.of("firstColumn", "HIGH", "smActive", "LOW", "dramActive", "MID"), json.getMap("card.window.levels"));
        assertEquals("UNMATCHED", json.getString("card.window.signature"));
        assertEquals(Map.of("BANDWIDTH_BOUND", 1, "COMPUTE_BOUND", 1, "IDLE", 1), json.getMap("card.minutes", String.class, Integer.class));
        assertEquals(3, json.getInt("card.measuredMinutes"));
    }

    @Test
    void eachPodReadsTheMinutesItHeldAndKnowsTheCardWasShared() {
        JsonPath json = diagnosis("GPU-D1");
        assertEquals(List.of("d-solo", "d-pair"), json.getList("pods.pod"));
        assertEquals("BANDWIDTH_BOUND", json.getString("pods[0].triad.window.signature"));
        assertEquals(0.9, json.getDouble("pods[0].triad.window.firstColumnMean"));
        assertEquals(0.45, json.getDouble("pods[0].triad.window.smActiveMean"));
        assertEquals(0.55, json.getDouble("pods[0].triad.window.dramActiveMean"));
        assertEquals(Map.of("BANDWIDTH_BOUND", 1, "COMPUTE_BOUND", 1), json.getMap("pods[0].triad.minutes", String.class, Integer.class));
        assertEquals("BUSY_NOT_WORKING", json.getString("pods[1].triad.window.signature"));
        assertEquals(0.616667, json.getDouble("pods[1].triad.window.firstColumnMean"));
        assertEquals(0.35, json.getDouble("pods[1].triad.window.smActiveMean"));
        assertEquals(0.15, json.getDouble("pods[1].triad.window.dramActiveMean"));
        assertEquals("DEVICE", json.getString("pods[1].series"));
        assertTrue(json.getBoolean("pods[0].sharedCard"));
        assertTrue(json.getBoolean("pods[1].sharedCard"));
        assertEquals("VGPU", json.getString("pods[1].unitKind"));
        assertEquals("2026-08-10T10:01:00Z", json.getString("pods[1].since"));
        assertEquals("2026-08-10T10:03:00Z", json.getString("pods[1].until"));
        assertEquals("diag", json.getString("pods[1].cluster"));
    }

    @Test
    void theFirstColumnSaysWhichFieldItCameFrom() {
        JsonPath d2 = diagnosis("GPU-D2");
        assertEquals("GPU_UTIL", d2.getString("card.window.firstColumn"));
        assertEquals(0.95, d2.getDouble("card.window.firstColumnMean"));
        assertEquals("COMPUTE_BOUND", d2.getString("card.window.signature"));
        assertFalse(d2.getBoolean("pods[0].sharedCard"));
        JsonPath d3 = diagnosis("GPU-D3");
        assertEquals("IDLE", d3.getString("card.window.signature"));
        assertNull(d3.get("card.window.smActiveMean"));
        assertEquals("LOW", d3.getString("card.window.levels.smActive"));
        JsonPath d4 = diagnosis("GPU-D4");
        assertEquals("INSUFFICIENT_DATA", d4.getString("card.window.signature"));
        assertEquals(List.of("SM_ACTIVE"), d4.getList("card.window.missing"));
        assertEquals(List.of(), d4.getList("pods"));
    }

    @Test
    void aMigPodReadsItsOwnInstance() {
        JsonPath json = diagnosis("GPU-DM");
        assertEquals("INSUFFICIENT_DATA", json.getString("card.window.signature"));
        assertEquals(0, json.getInt("card.measuredMinutes"));
        assertEquals("d-mig", json.getString("pods[0].pod"));
        assertEquals("MIG", json.getString("pods[0].unitKind"));
        assertEquals("MIG_INSTANCE/3", json.getString("pods[0].series"));
        assertFalse(json.getBoolean("pods[0].sharedCard"));
        assertEquals("COMPUTE_BOUND", json.getString("pods[0].triad.window.signature"));
    }

    @Test
    void theFleetCountsCardsPerSignature() {
        JsonPath json = given().queryParam("from", FROM).queryParam("to", TO).queryParam("cluster", "diag")
                .get("/api/v1/diagnosis/fleet").then().statusCode(200).extract().jsonPath();
        assertEquals(4, json.getInt("cards"));
        assertEquals(Map.of("BANDWIDTH_BOUND", 0, "COMPUTE_BOUND", 1, "BUSY_NOT_WORKING", 0, "IDLE", 1, "UNMATCHED", 1,
                "INSUFFICIENT_DATA", 1), json.getMap("signatures", String.class, Integer.class));
        assertEquals(Map.of("GR_ENGINE_ACTIVE", 3, "GPU_UTIL", 1), json.getMap("firstColumns", String.class, Integer.class));
        assertEquals("diag", json.getString("cluster"));
    }

    @Test
    void anUnknownCardIsNotFound() {
        given().queryParam("from", FROM).queryParam("to", TO).get("/api/v1/gpus/GPU-nowhere/diagnosis").then().statusCode(404)
                .contentType("application/problem+json").body("field", equalTo("uuid"));
    }

    @ParameterizedTest(name = "{0} -> 400 on {1}")
    @CsvSource(delimiter = '|', value = {
            "/api/v1/gpus/GPU-D1/diagnosis?to=2026-08-10T11:00:00Z | from",
            "/api/v1/gpus/GPU-D1/diagnosis?from=2026-08-10T10:00:00Z&to=soon | to",
            "/api/v1/gpus/GPU-D1/diagnosis?from=2026-08-10T11:00:00Z&to=2026-08-10T10:00:00Z | to",
            "/api/v1/gpus/GPU-D1/diagnosis?from=2026-06-01T00:00:00Z&to=2026-08-10T10:00:00Z | to",
            "/api/v1/diagnosis/fleet?from=2026-08-10T10:00:00Z | to",
            "/api/v1/diagnosis/fleet?from=2026-08-10T10:00:00Z&to=2026-08-10T11:00:00Z&cluster=Not_A_Label | cluster",
    })
    void badQueriesAreProblems(String url, String field) {
        given().urlEncodingEnabled(false).get(url).then().statusCode(400)
                .contentType("application/problem+json").body("field", equalTo(field)).body("status", equalTo(400));
    }
}
