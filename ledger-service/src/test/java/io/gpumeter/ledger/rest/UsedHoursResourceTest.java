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
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Used and idle GPU-hours on constructed series, each answer worked out by hand:
 * <pre>
 * exclusive (tenant ex): whole card GPU-E held 10:00-10:03; SM_ACTIVE mean 0.5 in 10:00, 1.0 in 10:01, no data 10:02
 *   used = 60x0.5 + 60x1.0 = 90 s = 0.025 h; allocated 180 s = 0.05 h; idle 0.025 h; coverage 120/180
 * shared (tenants sa, sb): HAMi card GPU-S, A 0.5 card and B 0.25 card both 11:00-11:01, GR_ENGINE_ACTIVE 0.6
 *   (an SM_ACTIVE-less card); load 0.75; A gets min(0.5, 0.6x0.5/0.75) = 0.4 -> 24 s; B min(0.25, 0.2) -> 12 s
 * partial (tenant pc): whole card GPU-P held from 12:00:30 to 12:02; GPU_UTIL 100% in 12:00 and 12:01
 *   used = 30 s + 60 s = 90 s = 0.025 h, only the coarse GPU_UTIL -> confidence LOW
 * </pre>
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class UsedHoursResourceTest {

    private static boolean loaded;

    static String pod(String uid, String ns, String start, String end, String resources, String vgpus) {
        return "{\"uid\":\"" + uid + "\",\"namespace\":\"" + ns + "\",\"name\":\"" + uid + "\",\"resourceVersion\":\"2\","
                + "\"type\":\"MODIFIED\",\"observedAt\":\"" + end + "\",\"scheduledAt\":\"" + start + "\",\"nodeName\":\"n1\","
                + "\"allTerminated\":true,\"lastFinishedAt\":\"" + end + "\",\"gpuResources\":" + resources
                + ",\"vgpus\":" + vgpus
                + ("[]".equals(vgpus) ? "" : ",\"hamiBindPhase\":\"success\",\"hamiNode\":\"n1\"") + "}";
    }

    static String gpu(String uuid) {
        return "{\"uuid\":\"" + uuid + "\",\"model\":\"NVIDIA-H100-80GB-HBM3\",\"memoryMib\":81920,\"cores\":100,\"splitCount\":10}";
    }

    static String ns(String name) {
        return "{\"name\":\"" + name + "\",\"resourceVersion\":\"1\",\"type\":\"ADDED\",\"observedAt\":\"2026-08-01T00:00:00Z\","
                + "\"labels\":{\"gpumeter.io/tenant\":\"" + name + "\"}}";
    }

    static String sample(String gpu, String field, double value, String at, String pod) {
        return "{\"gpuUuid\":\"" + gpu + "\",\"scope\":\"DEVICE\",\"scopeKey\":\"\",\"field\":\"" + field + "\",\"value\":" + value
                + ",\"at\":\"" + at + "\"" + (pod == null ? "" : ",\"namespace\":\"ex\",\"pod\":\"" + pod + "\"") + "}";
    }

    @BeforeEach
    void load() {
        if (loaded) {
            return;
        }
        loaded = true;
        // memory shares under the core shares, so the cores decide each fraction
        String vgpuA = "[{\"container\":0,\"uuid\":\"GPU-S\",\"type\":\"NVIDIA\",\"memoryMib\":20480,\"cores\":50}]";
        String vgpuB = "[{\"container\":0,\"uuid\":\"GPU-S\",\"type\":\"NVIDIA\",\"memoryMib\":10240,\"cores\":25}]";
        String facts = "{\"cluster\":\"used\",\"namespaces\":[" + ns("ex") + "," + ns("sa") + "," + ns("sb") + "," + ns("pc") + "],"
                + "\"nodes\":[{\"name\":\"n1\",\"resourceVersion\":\"1\",\"type\":\"ADDED\",\"observedAt\":\"2026-08-01T00:00:00Z\","
                + "\"labels\":{\"nvidia.com/gpu.product\":\"NVIDIA-H100-80GB-HBM3\",\"nvidia.com/gpu.memory\":\"81920\"},"
                + "\"gpus\":[" + gpu("GPU-E") + "," + gpu("GPU-S") + "," + gpu("GPU-P") + "]}],\"pods\":["
                + pod("ex-1", "ex", "2026-08-03T10:00:00Z", "2026-08-03T10:03:00Z", "{\"nvidia.com/gpu\":1}", "[]") + ","
                + pod("sa-1", "sa", "2026-08-03T11:00:00Z", "2026-08-03T11:01:00Z",
                "{\"nvidia.com/gpu\":1,\"nvidia.com/gpumem\":20480,\"nvidia.com/gpucores\":50}", vgpuA) + ","
                + pod("sb-1", "sb", "2026-08-03T11:00:00Z", "2026-08-03T11:01:00Z",
                "{\"nvidia.com/gpu\":1,\"nvidia.com/gpumem\":10240,\"nvidia.com/gpucores\":25}", vgpuB) + ","
                + pod("pc-1", "pc", "2026-08-03T12:00:30Z", "2026-08-03T12:02:00Z", "{\"nvidia.com/gpu\":1}", "[]") + "]}";
        given().contentType(ContentType.JSON).body(facts).post("/api/v1/facts").then().statusCode(200);
        // Exclusive card: the pod labels name it; two samples per minute in 10:00 (0.4 and 0.6), one in 10:01.
        String usage = "{\"cluster\":\"used\",\"samples\":["
                + sample("GPU-E", "SM_ACTIVE", 0.4, "2026-08-03T10:00:10Z", "ex-1") + ","
                + sample("GPU-E", "SM_ACTIVE", 0.6, "2026-08-03T10:00:40Z", "ex-1") + ","
                + sample("GPU-E", "GPU_UTIL", 0.1, "2026-08-03T10:00:40Z", "ex-1") + ","
                + sample("GPU-E", "SM_ACTIVE", 1.0, "2026-08-03T10:01:30Z", "ex-1") + ","
                + sample("GPU-S", "GR_ENGINE_ACTIVE", 0.6, "2026-08-03T11:00:20Z", null) + ","
                + sample("GPU-P", "GPU_UTIL", 1.0, "2026-08-03T12:00:05Z", null) + ","
                + sample("GPU-P", "GPU_UTIL", 1.0, "2026-08-03T12:01:05Z", null) + "]}";
        given().contentType(ContentType.JSON).body(usage).post("/api/v1/usage").then().statusCode(200);
        // The partial pod's card is named by a sighting without activity fields.
        String sighting = "{\"cluster\":\"used\",\"samples\":[{\"gpuUuid\":\"GPU-P\",\"scope\":\"DEVICE\",\"scopeKey\":\"\","
                + "\"field\":\"FB_USED_MIB\",\"value\":100,\"at\":\"2026-08-03T12:01:00Z\",\"namespace\":\"pc\",\"pod\":\"pc-1\"}]}";
        given().contentType(ContentType.JSON).body(sighting).post("/api/v1/usage").then().statusCode(200);
    }

    static JsonPath hours() {
        return given().queryParam("from", "2026-08-01T00:00:00Z").queryParam("to", "2026-09-01T00:00:00Z")
                .queryParam("groupBy", "tenant").get("/api/v1/gpu-hours").then().statusCode(200).extract().jsonPath()
                .using(new JsonPathConfig(JsonPathConfig.NumberReturnType.BIG_DECIMAL));
    }

    static BigDecimal value(JsonPath json, String tenant, String field) {
        return new BigDecimal(json.getString("find { it.key == '" + tenant + "' }." + field));
    }

    static void assertHours(String expected, BigDecimal actual) {
        assertTrue(new BigDecimal(expected).subtract(actual).abs().compareTo(new BigDecimal("1e-9")) < 0,
                "expected " + expected + ", got " + actual);
    }

    @Test
    void anExclusiveCardUsesItsOwnActivity() {
        JsonPath json = hours();
        assertHours("0.05", value(json, "ex", "allocatedGpuHours"));
        assertHours("0.025", value(json, "ex", "usedGpuHours"));
        assertHours("0.025", value(json, "ex", "idleGpuHours"));
        assertEquals(0, new BigDecimal("0.666667").compareTo(value(json, "ex", "usageCoverage")));
        assertEquals("SM_ACTIVE", json.getString("find { it.key == 'ex' }.activityMetric"));
        assertEquals("HIGH", json.getString("find { it.key == 'ex' }.usageConfidence"));
        assertEquals("DEVICE_EXCLUSIVE", json.getString("find { it.key == 'ex' }.usageSource"));
    }

    @Test
    void aSharedCardsActivityIsApportionedNotCopied() {
        JsonPath json = hours();
        assertHours("0.0066666666667", value(json, "sa", "usedGpuHours"));
        assertHours("0.0033333333333", value(json, "sb", "usedGpuHours"));
        assertEquals("MEDIUM", json.getString("find { it.key == 'sa' }.usageConfidence"));
        assertEquals("DEVICE_BY_ALLOCATION", json.getString("find { it.key == 'sa' }.usageSource"));
        assertEquals("GR_ENGINE_ACTIVE", json.getString("find { it.key == 'sb' }.activityMetric"));
    }

    @Test
    void partialMinutesCountByOverlapAndGpuUtilAloneIsLowConfidence() {
        JsonPath json = hours();
        assertHours("0.025", value(json, "pc", "usedGpuHours"));
        assertEquals("LOW", json.getString("find { it.key == 'pc' }.usageConfidence"));
    }
}
