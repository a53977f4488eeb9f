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

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Q3's split on a constructed hour, [10:00, 11:00), busy threshold 0.1; every figure worked out by hand:
 * <pre>
 * node in1 (known since Aug 1): GPU-I1, GPU-I2, GPU-I3, 80 GiB each; node in2 seen from 10:30: GPU-I4, 24 GiB
 * GPU-I1: a1 (tenant ta, 0.5 card) 10:00-10:20, b1 (tb, 0.25 card) 10:10-10:30;
 *         SM_ACTIVE 0.5 in 10:00-10:04 (busy), 0.05 in 10:05-10:14 (not busy), nothing from 10:15
 *   [10:00,10:10) a1 alone: busy 300, not busy 300
 *   [10:10,10:20) a1 2/3, b1 1/3 of 300 s not busy (10:10-10:15) and 300 s unmeasured
 *   [10:20,10:30) b1 alone: unmeasured 600
 *   card: busy 300, not busy 600, unmeasured 900, unallocated [10:30,11:00)
 * GPU-I3: p-early (ta, whole card) 10:05-10:45; GR_ENGINE_ACTIVE 0.9 in 10:05-10:24, 0.02 in 10:25-10:44
 *   busy 1200, not busy 1200; unallocated [10:00,10:05) and [10:45,11:00)
 * GPU-I2: never allocated. GPU-I4: known 10:30-11:00, never allocated.
 * Pending: p-early waited 09:00-10:05 for one GPU; p-fit (one 40 GiB vGPU) waits from 10:40 on; p-big asks for
 *   two GPUs, fits no single card. On 80 GiB cards the fitting waits are [10:00,10:05) and [10:40,11:00); on the
 *   24 GiB GPU-I4 only p-early fits, which had stopped waiting before I4 was known.
 *   I1 queued 1200 (10:40-11:00), empty 600; I2 queued 300+1200, empty 2100; I3 queued 300+900, empty 0;
 *   I4 queued 0, empty 1800
 * by tenant: (unallocated) empty 4500, queued 3900; ta busy 300+1200, not busy 300+200+1200, unmeasured 200;
 *   tb not busy 100, unmeasured 100+600
 * </pre>
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class IdleResourceTest {

    private static boolean loaded;

    static String node(String name, String seen, String gpus) {
        return "{\"name\":\"" + name + "\",\"resourceVersion\":\"1\",\"type\":\"ADDED\",\"observedAt\":\"" + seen + "\","
                + "\"labels\":{\"nvidia.com/gpu.product\":\"NVIDIA-H100-80GB-HBM3\"},\"gpus\":[" + gpus + "]}";
    }

    static String gpu(String uuid, long memory) {
        return "{\"uuid\":\"" + uuid + "\",\"model\":\"NVIDIA-H100-80GB-HBM3\",\"memoryMib\":" + memory + ",\"cores\":100,\"splitCount\":10}";
    }

    static String pod(String uid, String ns, String rv, String type, String observed, String created, String scheduled,
                      String end, String resources, String vgpus) {
        return "{\"uid\":\"" + uid + "\",\"namespace\":\"" + ns + "\",\"name\":\"" + uid + "\",\"resourceVersion\":\"" + rv + "\","
                + "\"type\":\"" + type + "\",\"observedAt\":\"" + at(observed) + "\",\"createdAt\":\"" + at(created) + "\""
                + (scheduled == null ? "" : ",\"scheduledAt\":\"" + at(scheduled) + "\",\"nodeName\":\"in1\"")
                + (end == null ? "" : ",\"allTerminated\":true,\"lastFinishedAt\":\"" + at(end) + "\"")
                + (type.equals("DELETED") ? ",\"deletionTimestamp\":\"" + at(observed) + "\"" : "")
                + ",\"gpuResources\":" + resources + ",\"vgpus\":" + vgpus
                + ("[]".equals(vgpus) ? "" : ",\"hamiBindPhase\":\"success\",\"hamiNode\":\"in1\"") + "}";
    }

    static String vgpu(String uuid, long memory, int cores) {
        return "[{\"container\":0,\"uuid\":\"" + uuid + "\",\"type\":\"NVIDIA\",\"memoryMib\":" + memory + ",\"cores\":" + cores + "}]";
    }

    /** What a pod asks HAMi for to be granted one vGPU of this memory and these cores. */
    static String hami(long memory, int cores) {
        return "{\"nvidia.com/gpu\":1,\"nvidia.com/gpumem\":" + memory + ",\"nvidia.com/gpucores\":" + cores + "}";
    }

    static String at(String hhmm) {
        return "2026-08-11T" + hhmm + ":00Z";
    }

    static String ns(String name) {
        return "{\"name\":\"" + name + "\",\"resourceVersion\":\"1\",\"type\":\"ADDED\",\"observedAt\":\"2026-08-01T00:00:00Z\","
                + "\"labels\":{\"gpumeter.io/tenant\":\"" + name + "\"}}";
    }

    static List<String> minutes(String gpu, String field, double value, int from, int to) {
        List<String> out = new ArrayList<>();
        for (int m = from; m < to; m++) {
            out.add("{\"gpuUuid\":\"" + gpu + "\",\"scope\":\"DEVICE\",\"scopeKey\":\"\",\"field\":\"" + field + "\",\"value\":" + value
                    + ",\"at\":\"2026-08-11T10:" + String.format("%02d", m) + ":30Z\"}");
        }
        return out;
    }

    @BeforeEach
    void load() {
        if (loaded) {
            return;
        }
        loaded = true;
        String wholeCard = "{\"nvidia.com/gpu\":1,\"nvidia.com/gpucores\":100}";
        String facts = "{\"cluster\":\"idle\",\"namespaces\":[" + ns("ta") + "," + ns("tb") + "],\"nodes\":["
                + node("in1", "2026-08-01T00:00:00Z", gpu("GPU-I1", 81920) + "," + gpu("GPU-I2", 81920) + "," + gpu("GPU-I3", 81920)) + ","
                + node("in2", "2026-08-11T10:30:00Z", gpu("GPU-I4", 24576)) + "],\"pods\":["
                + String.join(",",
                pod("a1", "ta", "2", "MODIFIED", "10:20", "10:00", "10:00", "10:20", hami(40960, 50), vgpu("GPU-I1", 40960, 50)),
                pod("b1", "tb", "2", "MODIFIED", "10:30", "10:10", "10:10", "10:30", hami(20480, 25), vgpu("GPU-I1", 20480, 25)),
                pod("p-early", "ta", "1", "ADDED", "09:00", "09:00", null, null, wholeCard, "[]"),
                pod("p-early", "ta", "2", "MODIFIED", "10:45", "09:00", "10:05", "10:45", wholeCard, vgpu("GPU-I3", 81920, 100)),
                pod("p-fit", "tb", "1", "ADDED", "10:40", "10:40", null, null, "{\"nvidia.com/gpu\":1,\"nvidia.com/gpumem\":40960}", "[]"),
                pod("p-big", "ta", "1", "ADDED", "10:00", "10:00", null, null, "{\"nvidia.com/gpu\":2}", "[]"),
                pod("p-big", "ta", "2", "DELETED", "10:50", "10:00", null, null, "{\"nvidia.com/gpu\":2}", "[]"))
                + "]}";
        given().contentType(ContentType.JSON).body(facts).post("/api/v1/facts").then().statusCode(200);
        List<String> samples = new ArrayList<>();
        samples.addAll(minutes("GPU-I1", "SM_ACTIVE", 0.5, 0, 5));
        samples.addAll(minutes("GPU-I1", "SM_ACTIVE", 0.05, 5, 15));
        samples.addAll(minutes("GPU-I3", "GR_ENGINE_ACTIVE", 0.9, 5, 25));
        samples.addAll(minutes("GPU-I3", "GR_ENGINE_ACTIVE", 0.02, 25, 45));
        given().contentType(ContentType.JSON).body("{\"cluster\":\"idle\",\"samples\":[" + String.join(",", samples) + "]}")
                .post("/api/v1/usage").then().statusCode(200);
    }

    static JsonPath split(String groupBy) {
        return given().queryParam("from", "2026-08-11T10:00:00Z").queryParam("to", "2026-08-11T11:00:00Z")
                .queryParam("groupBy", groupBy).queryParam("cluster", "idle").get("/api/v1/idle")
                .then().statusCode(200).extract().jsonPath().using(new JsonPathConfig(JsonPathConfig.NumberReturnType.BIG_DECIMAL));
    }

    /** Asserts a row's seconds: empty, queued-while-empty, allocated-not-busy, busy, allocated-unmeasured, total. */
    static void assertSplit(JsonPath json, String key, int... seconds) {
        String row = "rows.find { it.key == '" + key + "' }.seconds.";
        String[] parts = {"empty", "queuedWhileEmpty", "allocatedNotBusy", "busy", "allocatedUnmeasured", "total"};
        for (int i = 0; i < parts.length; i++) {
            BigDecimal actual = new BigDecimal(json.getString(row + parts[i]));
            assertEquals(0, BigDecimal.valueOf(seconds[i]).compareTo(actual), key + " " + parts[i] + ": got " + actual);
        }
    }

    @Test
    void perCard() {
        JsonPath json = split("gpu");
        assertEquals(List.of("GPU-I1", "GPU-I2", "GPU-I3", "GPU-I4"), json.getList("rows.key"));
        assertSplit(json, "GPU-I1", 600, 1200, 600, 300, 900, 3600);
        assertSplit(json, "GPU-I2", 2100, 1500, 0, 0, 0, 3600);
        assertSplit(json, "GPU-I3", 0, 1200, 1200, 1200, 0, 3600);
        assertSplit(json, "GPU-I4", 1800, 0, 0, 0, 0, 1800);
        assertEquals("SM_ACTIVE", json.getString("rows[0].activityMetrics"));
        assertEquals("GR_ENGINE_ACTIVE", json.getString("rows[2].activityMetrics"));
        assertNull(json.get("rows[1].activityMetrics"));
        assertEquals("idle", json.getString("rows[0].group.cluster"));
        assertEquals("GPU-I1", json.getString("rows[0].group.gpu"));
        assertEquals(new BigDecimal("0.0833"), new BigDecimal(json.getString("rows[0].shares.busy")));
        assertEquals(new BigDecimal("0.25"), new BigDecimal(json.getString("rows[0].shares.allocatedUnmeasured")));
        assertEquals(new BigDecimal("0.1"), new BigDecimal(json.getString("busyThreshold")));
    }

    @Test
    void perNode() {
        JsonPath json = split("node");
        assertEquals(List.of("idle/in1", "idle/in2"), json.getList("rows.key"));
        assertSplit(json, "idle/in1", 2700, 3900, 1800, 1500, 900, 10800);
        assertSplit(json, "idle/in2", 1800, 0, 0, 0, 0, 1800);
    }

    @Test
    void perTenantASharedCardsSecondsAreApportionedByFraction() {
        JsonPath json = split("tenant");
        assertEquals(List.of("(unallocated)", "ta", "tb"), json.getList("rows.key"));
        assertSplit(json, "(unallocated)", 4500, 3900, 0, 0, 0, 8400);
        assertSplit(json, "ta", 0, 0, 1700, 1500, 200, 3400);
        assertSplit(json, "tb", 0, 0, 100, 0, 700, 800);
        assertEquals("GR_ENGINE_ACTIVE,SM_ACTIVE", json.getString("rows.find { it.key == 'ta' }.activityMetrics"));
    }

    @ParameterizedTest(name = "{0} -> 400 on {1}")
    @CsvSource(delimiter = '|', value = {
            "/api/v1/idle?to=2026-08-11T11:00:00Z | from",
            "/api/v1/idle?from=2026-08-11T10:00:00Z&to=2026-08-11T09:00:00Z | to",
            "/api/v1/idle?from=2026-01-01T00:00:00Z&to=2026-08-11T09:00:00Z | to",
            "/api/v1/idle?from=2026-08-11T10:00:00Z&to=2026-08-11T11:00:00Z&groupBy=pool | groupBy",
            "/api/v1/idle?from=2026-08-11T10:00:00Z&to=2026-08-11T11:00:00Z&cluster=UPPER | cluster",
    })
    void badQueriesAreProblems(String url, String field) {
        given().urlEncodingEnabled(false).get(url).then().statusCode(400)
                .contentType("application/problem+json").body("field", equalTo(field));
    }
}
