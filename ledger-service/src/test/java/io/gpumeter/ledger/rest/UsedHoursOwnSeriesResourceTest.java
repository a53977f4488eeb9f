package io.gpumeter.ledger.rest;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.path.json.config.JsonPathConfig;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Units with their own series use them, not the card's (worked out by hand):
 * <pre>
 * mig (tenant mg): one 1g.10gb instance (1/7 card) of GPU-M, GPU instance 3, held 13:00-13:01; the instance's
 *   GR_ENGINE_ACTIVE 0.7 (the whole card shows 0.9): used = 60 s x 0.7 x 1/7 = 6 s = 1/600 h
 * vgpu (tenant vc): HAMi grant of 50 % cores on GPU-C held 14:00-14:01; its container's core utilization (relative
 *   to the whole card) 0.8, capped at 0.5 (the card shows 0.9): used = 30 s = 1/120 h
 * </pre>
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class UsedHoursOwnSeriesResourceTest {

    private static boolean loaded;

    static String pod(String uid, String ns, String node, String start, String end, String resources, String vgpus) {
        return "{\"uid\":\"" + uid + "\",\"namespace\":\"" + ns + "\",\"name\":\"" + uid + "\",\"resourceVersion\":\"2\","
                + "\"type\":\"MODIFIED\",\"observedAt\":\"" + end + "\",\"scheduledAt\":\"" + start + "\",\"nodeName\":\"" + node + "\","
                + "\"allTerminated\":true,\"lastFinishedAt\":\"" + end + "\",\"gpuResources\":" + resources + ",\"vgpus\":" + vgpus
                + ("[]".equals(vgpus) ? "" : ",\"hamiBindPhase\":\"success\",\"hamiNode\":\"" + node + "\"") + "}";
    }

    static String sample(String gpu, String scope, String key, String field, double value, String at, String ns, String pod) {
        return "{\"gpuUuid\":\"" + gpu + "\",\"scope\":\"" + scope + "\",\"scopeKey\":\"" + key + "\",\"field\":\"" + field
                + "\",\"value\":" + value + ",\"at\":\"" + at + "\",\"migProfile\":" + (scope.equals("MIG_INSTANCE") ? "\"1g.10gb\"" : "null")
                + (pod == null ? "" : ",\"namespace\":\"" + ns + "\",\"pod\":\"" + pod + "\"") + "}";
    }

    @BeforeEach
    void load() {
        if (loaded) {
            return;
        }
        loaded = true;
        String facts = "{\"cluster\":\"own\",\"nodes\":[{\"name\":\"a100\",\"resourceVersion\":\"1\",\"type\":\"ADDED\","
                + "\"observedAt\":\"2026-08-01T00:00:00Z\",\"labels\":{\"nvidia.com/gpu.product\":\"NVIDIA-A100-SXM4-80GB\","
                + "\"nvidia.com/gpu.memory\":\"81920\",\"nvidia.com/mig.strategy\":\"mixed\"}},"
                + "{\"name\":\"h100\",\"resourceVersion\":\"1\",\"type\":\"ADDED\",\"observedAt\":\"2026-08-01T00:00:00Z\","
                + "\"labels\":{\"nvidia.com/gpu.product\":\"NVIDIA-H100-80GB-HBM3\"},\"gpus\":[{\"uuid\":\"GPU-C\","
                + "\"model\":\"NVIDIA-H100-80GB-HBM3\",\"memoryMib\":81920,\"cores\":100,\"splitCount\":10}]}],\"pods\":["
                + pod("mg-1", "mg", "a100", "2026-08-05T13:00:00Z", "2026-08-05T13:01:00Z", "{\"nvidia.com/mig-1g.10gb\":1}", "[]") + ","
                + pod("vc-1", "vc", "h100", "2026-08-05T14:00:00Z", "2026-08-05T14:01:00Z",
                "{\"nvidia.com/gpu\":1,\"nvidia.com/gpumem\":1024,\"nvidia.com/gpucores\":50}",
                "[{\"container\":0,\"uuid\":\"GPU-C\",\"type\":\"NVIDIA\",\"memoryMib\":1024,\"cores\":50}]") + "]}";
        given().contentType(ContentType.JSON).body(facts).post("/api/v1/facts").then().statusCode(200);
        String usage = "{\"cluster\":\"own\",\"samples\":["
                + sample("GPU-M", "MIG_INSTANCE", "3", "GR_ENGINE_ACTIVE", 0.7, "2026-08-05T13:00:20Z", "mg", "mg-1") + ","
                + sample("GPU-M", "DEVICE", "", "GR_ENGINE_ACTIVE", 0.9, "2026-08-05T13:00:20Z", null, null) + ","
                + sample("GPU-C", "CONTAINER", "vc/vc-1/main", "VGPU_CORE_UTIL", 0.8, "2026-08-05T14:00:20Z", "vc", "vc-1") + ","
                + sample("GPU-C", "DEVICE", "", "GR_ENGINE_ACTIVE", 0.9, "2026-08-05T14:00:20Z", null, null) + "]}";
        given().contentType(ContentType.JSON).body(usage).post("/api/v1/usage").then().statusCode(200)
                // the MIG instance's series and the HAMi container's series each name their pod's card
                .body("podsBound", equalTo(2));
    }

    static JsonPath hours() {
        return hours("2026-08-05T00:00:00Z", "2026-08-06T00:00:00Z");
    }

    static JsonPath hours(String from, String to) {
        return given().queryParam("from", from).queryParam("to", to)
                .queryParam("groupBy", "tenant").get("/api/v1/gpu-hours").then().statusCode(200).extract().jsonPath()
                .using(new JsonPathConfig(JsonPathConfig.NumberReturnType.BIG_DECIMAL));
    }

    static void assertHours(String expected, Object actual) {
        BigDecimal value = new BigDecimal(String.valueOf(actual));
        assertTrue(new BigDecimal(expected).subtract(value).abs().compareTo(new BigDecimal("1e-9")) < 0,
                "expected " + expected + ", got " + value);
    }

    @Test
    void aMigUnitUsesItsInstanceSeriesTimesItsFraction() {
        given().queryParam("at", "2026-08-05T13:00:30Z").get("/api/v1/gpus/GPU-M/occupants").then().statusCode(200)
                .body("[0].unit.migInstance", equalTo("3"));
        JsonPath json = hours();
        assertHours("0.0016666666667", json.get("find { it.key == 'mg' }.usedGpuHours"));
        assertEquals("GR_ENGINE_ACTIVE", json.getString("find { it.key == 'mg' }.activityMetric"));
        assertEquals("HIGH", json.getString("find { it.key == 'mg' }.usageConfidence"));
        assertEquals("MIG_INSTANCE", json.getString("find { it.key == 'mg' }.usageSource"));
    }

    @Test
    void aVgpuUsesItsContainerSeriesCappedAtItsFraction() {
        JsonPath json = hours();
        assertHours("0.0083333333333", json.get("find { it.key == 'vc' }.usedGpuHours"));
        assertEquals("VGPU_CORE_UTIL", json.getString("find { it.key == 'vc' }.activityMetric"));
    }

    /** Grouped by pod, each pod is its own line ("namespace/pod"), its own hours as grouped by tenant above. */
    @Test
    void eachPodsOwnHoursGroupedByPod() {
        JsonPath json = given().queryParam("from", "2026-08-05T00:00:00Z").queryParam("to", "2026-08-06T00:00:00Z")
                .queryParam("groupBy", "cluster,pod").get("/api/v1/gpu-hours").then().statusCode(200).extract().jsonPath()
                .using(new JsonPathConfig(JsonPathConfig.NumberReturnType.BIG_DECIMAL));
        // the database is shared with other tests, whose pods still running cross this day too: this cluster's only
        assertEquals(java.util.List.of("mg/mg-1", "vc/vc-1"), json.getList("findAll { it.group.cluster == 'own' }.group.pod"));
        // 1/7 card for 60 s, and one whole card's HAMi grant (50 % cores, 1 GiB of 80) for 60 s
        assertHours("0.0023809523810", json.get("find { it.group.cluster == 'own' && it.group.pod == 'mg/mg-1' }.allocatedGpuHours"));
        assertHours("0.0016666666667", json.get("find { it.group.cluster == 'own' && it.group.pod == 'mg/mg-1' }.usedGpuHours"));
        assertHours("0.0083333333333", json.get("find { it.group.cluster == 'own' && it.group.pod == 'vc/vc-1' }.usedGpuHours"));
    }

    /**
     * Whether a unit has a series of its own is decided per day: vd-1 holds half of GPU-D (HAMi, 50 % cores) from
     * 7 Aug 23:59Z to 8 Aug 00:01Z; its container's series (0.4) is there for 23:59 only, the card's GR_ENGINE_ACTIVE
     * (0.6) for both minutes. On the 7th the container's 0.4 × 60 s = 24 s; on the 8th, with no series of its own that
     * day, the card's activity, the sole occupant's, capped at its half: 0.5 × 60 s = 30 s. 54 s = 0.015 h in all.
     */
    @Test
    void aUnitWithoutItsOwnSeriesOnADayIsApportionedTheCardThatDay() {
        String facts = "{\"cluster\":\"ownday\",\"nodes\":[{\"name\":\"h100d\",\"resourceVersion\":\"1\",\"type\":\"ADDED\","
                + "\"observedAt\":\"2026-08-01T00:00:00Z\",\"labels\":{\"nvidia.com/gpu.product\":\"NVIDIA-H100-80GB-HBM3\"},"
                + "\"gpus\":[{\"uuid\":\"GPU-D\",\"model\":\"NVIDIA-H100-80GB-HBM3\",\"memoryMib\":81920,\"cores\":100,"
                + "\"splitCount\":10}]}],\"pods\":["
                + pod("vd-1", "vd", "h100d", "2026-08-07T23:59:00Z", "2026-08-08T00:01:00Z",
                "{\"nvidia.com/gpu\":1,\"nvidia.com/gpumem\":1024,\"nvidia.com/gpucores\":50}",
                "[{\"container\":0,\"uuid\":\"GPU-D\",\"type\":\"NVIDIA\",\"memoryMib\":1024,\"cores\":50}]") + "]}";
        given().contentType(ContentType.JSON).body(facts).post("/api/v1/facts").then().statusCode(200);
        String usage = "{\"cluster\":\"ownday\",\"samples\":["
                + sample("GPU-D", "CONTAINER", "vd/vd-1/main", "VGPU_CORE_UTIL", 0.4, "2026-08-07T23:59:20Z", "vd", "vd-1") + ","
                + sample("GPU-D", "DEVICE", "", "GR_ENGINE_ACTIVE", 0.6, "2026-08-07T23:59:20Z", null, null) + ","
                + sample("GPU-D", "DEVICE", "", "GR_ENGINE_ACTIVE", 0.6, "2026-08-08T00:00:20Z", null, null) + "]}";
        given().contentType(ContentType.JSON).body(usage).post("/api/v1/usage").then().statusCode(200);

        JsonPath both = hours("2026-08-07T00:00:00Z", "2026-08-09T00:00:00Z");
        assertHours("0.015", both.get("find { it.key == 'vd' }.usedGpuHours"));
        assertEquals("HAMI_CONTAINER,DEVICE_EXCLUSIVE", both.getString("find { it.key == 'vd' }.usageSource"));
        JsonPath days = given().queryParam("from", "2026-08-07T00:00:00Z").queryParam("to", "2026-08-09T00:00:00Z")
                .queryParam("groupBy", "tenant,day").queryParam("tenant", "vd").get("/api/v1/gpu-hours").then().statusCode(200)
                .extract().jsonPath().using(new JsonPathConfig(JsonPathConfig.NumberReturnType.BIG_DECIMAL));
        assertHours("0.0066666666667", days.get("find { it.key == 'vd/2026-08-07' }.usedGpuHours"));
        assertHours("0.0083333333333", days.get("find { it.key == 'vd/2026-08-08' }.usedGpuHours"));
    }
}
