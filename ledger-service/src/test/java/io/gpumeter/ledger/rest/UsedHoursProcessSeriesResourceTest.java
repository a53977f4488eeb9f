package io.gpumeter.ledger.rest;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.gpumeter.ledger.rest.UsedHoursOwnSeriesResourceTest.assertHours;
import static io.gpumeter.ledger.rest.UsedHoursOwnSeriesResourceTest.hours;
import static io.gpumeter.ledger.rest.UsedHoursOwnSeriesResourceTest.pod;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * nvidia-smi's per-process series in the used ledger, on node ts whose cards are time-sliced in two (each pod's unit
 * is half a card, its card named by the processes the pusher attributed to it). Worked out by hand:
 * <pre>
 * GPU-T1, 10:00-10:01, pods ta and tb both measured per process; the card: SM_ACTIVE 0.6, GPU_UTIL 0.9
 *   ta: pid 101 samples 0.3 and 0.5 (mean 0.4) + pid 102 0.15 = 0.55, capped at 0.5 -> 30 s = 1/120 h
 *   tb: pid 201 0.2 -> 12 s = 1/300 h       (by allocation each would have had 0.6 x 0.5 = 0.3 -> 18 s)
 * GPU-T2, 11:00-11:01, pod pa measured per process, pod pb not (dcgm's pod label names pb's card); an unattributed
 *   pid 999 at 0.3; the card: SM_ACTIVE 0.6, GPU_UTIL 0.8
 *   pa: pid 301 0.2 -> 12 s = 1/300 h
 *   pb: pa took 0.2 of the card's 0.8 busy time, leaving 0.6 x (1 - 0.2 / 0.8) = 0.45 of its SM activity; pb is the
 *       only unmeasured unit: 0.45 x 0.5 / 0.5 = 0.45 (under its 0.5) -> 27 s = 0.0075 h
 * GPU-T5 (HAMi node hv-node), 13:00-13:01, HAMi pod hv (50 % cores): its container's core utilization 0.3 outranks its process's 0.4
 *   -> 18 s = 0.005 h
 * Bypass: pod by holds half of GPU-T3 12:00-12:05 (its process there at 0.25 in 12:00 -> 15 s); a process of its
 *   container runs on GPU-T4 too, in 12:00 and 12:01: one BYPASS episode 12:00-12:02
 * </pre>
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class UsedHoursProcessSeriesResourceTest {

    private static boolean loaded;

    static String sample(String gpu, String scope, String key, String field, double value, String at, String ns, String pod) {
        return "{\"gpuUuid\":\"" + gpu + "\",\"scope\":\"" + scope + "\",\"scopeKey\":\"" + key + "\",\"field\":\"" + field
                + "\",\"value\":" + value + ",\"at\":\"" + at + "\""
                + (pod == null ? "" : ",\"namespace\":\"" + ns + "\",\"pod\":\"" + pod + "\",\"container\":\"main\"") + "}";
    }

    static String process(String gpu, String ns, String pod, int pid, String field, double value, String at) {
        return sample(gpu, "PROCESS", ns + "/" + pod + "/main/" + pid, field, value, at, ns, pod);
    }

    static String device(String gpu, String field, double value, String at) {
        return sample(gpu, "DEVICE", "", field, value, at, null, null);
    }

    @BeforeEach
    void load() {
        if (loaded) {
            return;
        }
        loaded = true;
        String whole = "{\"nvidia.com/gpu\":1}";
        String facts = "{\"cluster\":\"proc\",\"nodes\":[{\"name\":\"ts\",\"resourceVersion\":\"1\",\"type\":\"ADDED\","
                + "\"observedAt\":\"2026-08-01T00:00:00Z\",\"labels\":{\"nvidia.com/gpu.product\":\"NVIDIA-H100-80GB-HBM3\","
                + "\"nvidia.com/gpu.memory\":\"81920\",\"nvidia.com/gpu.replicas\":\"2\"}},"
                + "{\"name\":\"hv-node\",\"resourceVersion\":\"1\",\"type\":\"ADDED\",\"observedAt\":\"2026-08-01T00:00:00Z\","
                + "\"labels\":{\"nvidia.com/gpu.product\":\"NVIDIA-H100-80GB-HBM3\"},\"gpus\":[{\"uuid\":\"GPU-T5\","
                + "\"model\":\"NVIDIA-H100-80GB-HBM3\",\"memoryMib\":81920,\"cores\":100,\"splitCount\":10}]}],\"pods\":["
                + pod("ta", "ta", "ts", "2026-08-07T10:00:00Z", "2026-08-07T10:01:00Z", whole, "[]") + ","
                + pod("tb", "tb", "ts", "2026-08-07T10:00:00Z", "2026-08-07T10:01:00Z", whole, "[]") + ","
                + pod("pa", "pa", "ts", "2026-08-07T11:00:00Z", "2026-08-07T11:01:00Z", whole, "[]") + ","
                + pod("pb", "pb", "ts", "2026-08-07T11:00:00Z", "2026-08-07T11:01:00Z", whole, "[]") + ","
                + pod("by", "bp", "ts", "2026-08-07T12:00:00Z", "2026-08-07T12:05:00Z", whole, "[]") + ","
                + pod("hv", "hv", "hv-node", "2026-08-07T13:00:00Z", "2026-08-07T13:01:00Z",
                "{\"nvidia.com/gpu\":1,\"nvidia.com/gpumem\":1024,\"nvidia.com/gpucores\":50}",
                "[{\"container\":0,\"uuid\":\"GPU-T5\",\"type\":\"NVIDIA\",\"memoryMib\":1024,\"cores\":50}]") + "]}";
        given().contentType(ContentType.JSON).body(facts).post("/api/v1/facts").then().statusCode(200);
        List<String> samples = new ArrayList<>(List.of(
                device("GPU-T1", "SM_ACTIVE", 0.6, "2026-08-07T10:00:20Z"),
                device("GPU-T1", "GPU_UTIL", 0.9, "2026-08-07T10:00:20Z"),
                process("GPU-T1", "ta", "ta", 101, "GPU_UTIL", 0.3, "2026-08-07T10:00:10Z"),
                process("GPU-T1", "ta", "ta", 101, "GPU_UTIL", 0.5, "2026-08-07T10:00:40Z"),
                process("GPU-T1", "ta", "ta", 102, "GPU_UTIL", 0.15, "2026-08-07T10:00:10Z"),
                process("GPU-T1", "ta", "ta", 101, "FB_USED_MIB", 20000, "2026-08-07T10:00:10Z"),
                process("GPU-T1", "tb", "tb", 201, "GPU_UTIL", 0.2, "2026-08-07T10:00:10Z"),
                sample("GPU-T2", "DEVICE", "", "SM_ACTIVE", 0.6, "2026-08-07T11:00:20Z", "pb", "pb"),
                device("GPU-T2", "GPU_UTIL", 0.8, "2026-08-07T11:00:20Z"),
                process("GPU-T2", "pa", "pa", 301, "GPU_UTIL", 0.2, "2026-08-07T11:00:10Z"),
                sample("GPU-T2", "PROCESS", "999", "GPU_UTIL", 0.3, "2026-08-07T11:00:10Z", null, null),
                process("GPU-T3", "bp", "by", 401, "GPU_UTIL", 0.25, "2026-08-07T12:00:10Z"),
                process("GPU-T4", "bp", "by", 402, "GPU_UTIL", 0.1, "2026-08-07T12:00:20Z"),
                process("GPU-T4", "bp", "by", 402, "FB_USED_MIB", 900, "2026-08-07T12:01:20Z"),
                sample("GPU-T5", "CONTAINER", "hv/hv/main", "VGPU_CORE_UTIL", 0.3, "2026-08-07T13:00:20Z", "hv", "hv"),
                process("GPU-T5", "hv", "hv", 501, "GPU_UTIL", 0.4, "2026-08-07T13:00:20Z")));
        given().contentType(ContentType.JSON).body("{\"cluster\":\"proc\",\"samples\":[" + String.join(",", samples) + "]}")
                .post("/api/v1/usage").then().statusCode(200);
    }

    static JsonPath day() {
        return hours("2026-08-07T00:00:00Z", "2026-08-08T00:00:00Z");
    }

    @Test
    void processesNameTheCardsOfTheirPods() {
        given().queryParam("at", "2026-08-07T10:00:30Z").get("/api/v1/gpus/GPU-T1/occupants").then().statusCode(200)
                .body("$", hasSize(2)).body("pod", equalTo(List.of("ta", "tb")));
        given().queryParam("at", "2026-08-07T12:03:00Z").get("/api/v1/gpus/GPU-T3/occupants").then().statusCode(200)
                .body("pod", equalTo(List.of("by")));
        // The bypassing process named no allocation: nobody ever held GPU-T4.
        given().queryParam("at", "2026-08-07T12:03:00Z").get("/api/v1/gpus/GPU-T4/occupants").then().statusCode(404);
    }

    @Test
    void podsMeasuredPerProcessUseTheirOwnSmTimeCappedAtTheirShare() {
        JsonPath json = day();
        assertHours("0.0083333333333", json.get("find { it.key == 'ta' }.allocatedGpuHours"));
        assertHours("0.0083333333333", json.get("find { it.key == 'ta' }.usedGpuHours"));
        assertHours("0.0033333333333", json.get("find { it.key == 'tb' }.usedGpuHours"));
        assertEquals("PROCESS", json.getString("find { it.key == 'tb' }.usageSource"));
        assertEquals("GPU_UTIL", json.getString("find { it.key == 'tb' }.activityMetric"));
        assertEquals("MEDIUM", json.getString("find { it.key == 'tb' }.usageConfidence"));
    }

    @Test
    void theRestOfTheCardGoesToThePodNotMeasured() {
        JsonPath json = day();
        assertHours("0.0033333333333", json.get("find { it.key == 'pa' }.usedGpuHours"));
        assertHours("0.0075", json.get("find { it.key == 'pb' }.usedGpuHours"));
        assertEquals("DEVICE_BY_PROCESS", json.getString("find { it.key == 'pb' }.usageSource"));
        assertEquals("SM_ACTIVE", json.getString("find { it.key == 'pb' }.activityMetric"));
        assertEquals("MEDIUM", json.getString("find { it.key == 'pb' }.usageConfidence"));
    }

    @Test
    void hamiContainerSeriesOutrankProcessSeries() {
        JsonPath json = day();
        assertHours("0.005", json.get("find { it.key == 'hv' }.usedGpuHours"));
        assertEquals("HAMI_CONTAINER", json.getString("find { it.key == 'hv' }.usageSource"));
        assertEquals("HIGH", json.getString("find { it.key == 'hv' }.usageConfidence"));
    }

    @Test
    void aProcessOnACardItsPodDoesNotHoldIsABypass() {
        assertHours("0.0041666666667", day().get("find { it.key == 'bp' }.usedGpuHours"));
        // the database is shared with other tests, whose pods still running cross these hours too: this cluster's only
        String proc = "findAll { it.cluster == 'proc' }";
        given().queryParam("from", "2026-08-07T10:00:00Z").queryParam("to", "2026-08-07T14:00:00Z")
                .get("/api/v1/violations").then().statusCode(200)
                .body(proc, hasSize(1))
                .body(proc + "[0].kind", equalTo("BYPASS")).body(proc + "[0].resource", equalTo("PROCESS"))
                .body(proc + "[0].gpuUuid", equalTo("GPU-T4")).body(proc + "[0].namespace", equalTo("bp"))
                .body(proc + "[0].pod", equalTo("by")).body(proc + "[0].container", equalTo("main"))
                .body(proc + "[0].start", equalTo("2026-08-07T12:00:00Z")).body(proc + "[0].end", equalTo("2026-08-07T12:02:00Z"))
                .body(proc + "[0].minutes", equalTo(2));
    }
}
