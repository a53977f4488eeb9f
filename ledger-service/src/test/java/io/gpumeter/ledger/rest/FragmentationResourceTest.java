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
import java.util.List;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Fragmentation at 12:00 on a constructed fleet (shapes 10, 20, 30 GiB weighed equally; MIG profiles 2g, 3g);
 * every figure worked out by hand:
 * <pre>
 * pool inference (fn1, HAMi, 80 GiB cards, 4 slots):
 *   F1 one 25 GiB vGPU at 30 cores  -> free 55 GiB, takes more: stranded 10:5 20:15 30:25 GiB
 *   F2 one 40 GiB vGPU at 100 cores -> free 40 GiB, no cores: all 40 stranded for every shape
 *   F3 untouched (its pod starts 12:30) -> free 80: stranded 10:0 20:0 30:20
 *   (a 10 GiB vGPU on F1 ended at 11:00)
 * pool NVIDIA-L40S (fn2, no HAMi; two 46068 MiB cards counted by GPU feature discovery): one whole-card pod, its
 *   card unnamed, takes the first; the other is free: 46068 mod 10240 = 5108, mod 20480 = 5108, mod 30720 = 15348
 * pool NVIDIA-A100-SXM4-80GB (MIG): fm1 mixed, 7 slices, 3g + 2g held -> 2 free, one 2g fits -> 0 stranded;
 *   fm2 single strategy 1g.10gb, one held -> 6 free instances no 2g/3g request fits -> 6 stranded; 6/8 = 0.75
 * fleet: free 179200 + 46068 = 225268 MiB; stranded 10: 46080 + 5108 = 51188 (0.227232),
 *   20: 56320 + 5108 = 61428 (0.272689), 30: 87040 + 15348 = 102388 (0.454516); overall 214004/675804 = 0.318145
 * </pre>
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class FragmentationResourceTest {

    static final String AT = "2026-08-12T12:00:00Z";
    private static boolean loaded;

    static String node(String name, String labels, String gpus) {
        return "{\"name\":\"" + name + "\",\"resourceVersion\":\"1\",\"type\":\"ADDED\",\"observedAt\":\"2026-08-01T00:00:00Z\","
                + "\"labels\":{" + labels + "},\"gpus\":[" + gpus + "]}";
    }

    static String gpu(String uuid) {
        return "{\"uuid\":\"" + uuid + "\",\"model\":\"NVIDIA-H100-80GB-HBM3\",\"memoryMib\":81920,\"cores\":100,\"splitCount\":4}";
    }

    static String pod(String uid, String node, String start, String end, String resources, String vgpus) {
        return "{\"uid\":\"" + uid + "\",\"namespace\":\"fq\",\"name\":\"" + uid + "\",\"resourceVersion\":\"2\","
                + "\"type\":\"MODIFIED\",\"observedAt\":\"2026-08-12T" + (end == null ? start : end) + ":00Z\","
                + "\"scheduledAt\":\"2026-08-12T" + start + ":00Z\",\"nodeName\":\"" + node + "\""
                + (end == null ? "" : ",\"allTerminated\":true,\"lastFinishedAt\":\"2026-08-12T" + end + ":00Z\"")
                + ",\"gpuResources\":" + resources + ",\"vgpus\":" + vgpus
                + ("[]".equals(vgpus) ? "" : ",\"hamiBindPhase\":\"success\",\"hamiNode\":\"" + node + "\"") + "}";
    }

    static String vgpu(String uuid, long memory, int cores) {
        return "[{\"container\":0,\"uuid\":\"" + uuid + "\",\"type\":\"NVIDIA\",\"memoryMib\":" + memory + ",\"cores\":" + cores + "}]";
    }

    /** What a pod asks HAMi for to be granted one vGPU of this memory and these cores. */
    static String hami(long memory, int cores) {
        return "{\"nvidia.com/gpu\":1,\"nvidia.com/gpumem\":" + memory + ",\"nvidia.com/gpucores\":" + cores + "}";
    }

    @BeforeEach
    void load() {
        if (loaded) {
            return;
        }
        loaded = true;
        String gpuOne = "{\"nvidia.com/gpu\":1}";
        String facts = "{\"cluster\":\"frag\",\"nodes\":["
                + node("fn1", "\"gpumeter.io/pool\":\"inference\",\"nvidia.com/gpu.product\":\"NVIDIA-H100-80GB-HBM3\"",
                gpu("GPU-F1") + "," + gpu("GPU-F2") + "," + gpu("GPU-F3")) + ","
                + node("fn2", "\"nvidia.com/gpu.product\":\"NVIDIA-L40S\",\"nvidia.com/gpu.count\":\"2\",\"nvidia.com/gpu.memory\":\"46068\"", "") + ","
                + node("fm1", "\"nvidia.com/gpu.product\":\"NVIDIA-A100-SXM4-80GB\",\"nvidia.com/mig.strategy\":\"mixed\","
                + "\"nvidia.com/gpu.count\":\"1\"", "") + ","
                + node("fm2", "\"nvidia.com/gpu.product\":\"NVIDIA-A100-SXM4-80GB-MIG-1g.10gb\",\"nvidia.com/mig.strategy\":\"single\","
                + "\"nvidia.com/gpu.count\":\"1\"", "") + "],\"pods\":["
                + String.join(",",
                pod("h1", "fn1", "11:30", null, hami(25600, 30), vgpu("GPU-F1", 25600, 30)),
                pod("h2", "fn1", "11:30", null, hami(40960, 100), vgpu("GPU-F2", 40960, 100)),
                pod("h3", "fn1", "10:00", "11:00", hami(10240, 10), vgpu("GPU-F1", 10240, 10)),
                pod("h4", "fn1", "12:30", null, hami(10240, 10), vgpu("GPU-F3", 10240, 10)),
                pod("w1", "fn2", "11:30", null, gpuOne, "[]"),
                pod("mig-a", "fm1", "11:30", null, "{\"nvidia.com/mig-3g.40gb\":1}", "[]"),
                pod("mig-b", "fm1", "11:30", null, "{\"nvidia.com/mig-2g.20gb\":1}", "[]"),
                pod("s1", "fm2", "11:30", null, gpuOne, "[]"))
                + "]}";
        given().contentType(ContentType.JSON).body(facts).post("/api/v1/facts").then().statusCode(200);
    }

    static JsonPath fragmentation(String groupBy, String shapes) {
        var request = given().queryParam("at", AT).queryParam("cluster", "frag").queryParam("groupBy", groupBy);
        if (shapes != null) {
            request.queryParam("shapes", shapes);
        }
        return request.get("/api/v1/fragmentation").then().statusCode(200).extract().jsonPath()
                .using(new JsonPathConfig(JsonPathConfig.NumberReturnType.BIG_DECIMAL));
    }

    static void assertDecimal(String expected, Object actual) {
        assertEquals(0, new BigDecimal(expected).compareTo(new BigDecimal(String.valueOf(actual))), "expected " + expected + ", got " + actual);
    }

    @Test
    void fleetWide() {
        JsonPath json = fragmentation("fleet", null);
        assertEquals(List.of(10, 20, 30), json.getList("shapesGiB", Integer.class));
        assertEquals(List.of("2g.20gb", "3g.40gb"), json.getList("migProfiles"));
        assertEquals("fleet", json.getString("groups[0].key"));
        assertEquals(5, json.getInt("groups[0].memory.cards"));
        assertDecimal("225268", json.get("groups[0].memory.freeMiB"));
        assertDecimal("51188", json.get("groups[0].memory.shapes[0].strandedMiB"));
        assertDecimal("0.227232", json.get("groups[0].memory.shapes[0].ratio"));
        assertDecimal("61428", json.get("groups[0].memory.shapes[1].strandedMiB"));
        assertDecimal("0.272689", json.get("groups[0].memory.shapes[1].ratio"));
        assertDecimal("102388", json.get("groups[0].memory.shapes[2].strandedMiB"));
        assertDecimal("0.454516", json.get("groups[0].memory.shapes[2].ratio"));
        assertDecimal("0.333333", json.get("groups[0].memory.shapes[2].weight"));
        assertDecimal("0.318145", json.get("groups[0].memory.overall"));
        assertEquals(2, json.getInt("groups[0].mig.cards"));
        assertEquals(8, json.getInt("groups[0].mig.freeSlices"));
        assertEquals(6, json.getInt("groups[0].mig.strandedSlices"));
        assertDecimal("0.75", json.get("groups[0].mig.ratio"));
    }

    @Test
    void perNodePool() {
        JsonPath json = fragmentation("pool", null);
        assertEquals(List.of("frag/NVIDIA-A100-SXM4-80GB", "frag/NVIDIA-L40S", "frag/inference"), json.getList("groups.key"));
        assertEquals("inference", json.getString("groups[2].group.pool"));
        assertEquals("frag", json.getString("groups[2].group.cluster"));
        assertDecimal("179200", json.get("groups[2].memory.freeMiB"));
        assertDecimal("0.257143", json.get("groups[2].memory.shapes[0].ratio"));
        assertDecimal("0.352381", json.get("groups[2].memory.overall"));
        assertDecimal("46068", json.get("groups[1].memory.freeMiB"));
        assertDecimal("0.11088", json.get("groups[1].memory.shapes[0].ratio"));
        assertDecimal("0.33316", json.get("groups[1].memory.shapes[2].ratio"));
        assertDecimal("0.184973", json.get("groups[1].memory.overall"));
        assertEquals(0, json.getInt("groups[0].memory.cards"));
        assertNull(json.get("groups[0].memory.overall"));
        assertDecimal("0.75", json.get("groups[0].mig.ratio"));
        assertNull(json.get("groups[1].mig.ratio"));
    }

    @Test
    void shapesOutsideTheMixWeighNothingInTheOverallFigure() {
        JsonPath json = fragmentation("fleet", "10,40");
        assertEquals(List.of(10, 40), json.getList("shapesGiB", Integer.class));
        // 40 GiB: F1 55 mod 40 = 15 GiB, F2 all 40, F3 80 mod 40 = 0, the L40S 46068 mod 40960 = 5108
        assertDecimal("61428", json.get("groups[0].memory.shapes[1].strandedMiB"));
        assertDecimal("0", json.get("groups[0].memory.shapes[1].weight"));
        assertDecimal("1", json.get("groups[0].memory.shapes[0].weight"));
        assertDecimal("0.227232", json.get("groups[0].memory.overall"));
    }

    /** At 11:00 nothing is held: F1-F3 strand 20 GiB each for 30 GiB; fm1's 7 free slices fit 2g+2g+3g; fm2's 7 do not. */
    @Test
    void aSeriesProbesEveryStep() {
        JsonPath json = given().queryParam("from", "2026-08-12T11:00:00Z").queryParam("to", "2026-08-12T13:00:00Z")
                .queryParam("step", "PT1H").queryParam("cluster", "frag").get("/api/v1/fragmentation/series")
                .then().statusCode(200).extract().jsonPath().using(new JsonPathConfig(JsonPathConfig.NumberReturnType.BIG_DECIMAL));
        assertEquals(List.of("2026-08-12T11:00:00Z", "2026-08-12T12:00:00Z"), json.getList("points.at"));
        assertDecimal("337896", json.get("points[0].groups[0].memory.freeMiB"));
        assertDecimal("0.272676", json.get("points[0].groups[0].memory.shapes[2].ratio"));
        assertDecimal("0.111048", json.get("points[0].groups[0].memory.overall"));
        assertDecimal("0.5", json.get("points[0].groups[0].mig.ratio"));
        assertDecimal("0.318145", json.get("points[1].groups[0].memory.overall"));
        assertEquals("PT1H", json.getString("step"));
    }

    @ParameterizedTest(name = "{0} -> 400 on {1}")
    @CsvSource(delimiter = '|', value = {
            "/api/v1/fragmentation?at=noon | at",
            "/api/v1/fragmentation?shapes=10,x | shapes",
            "/api/v1/fragmentation?shapes=10,10 | shapes",
            "/api/v1/fragmentation?shapes=0 | shapes",
            "/api/v1/fragmentation?shapes=2000 | shapes",
            "/api/v1/fragmentation?groupBy=node | groupBy",
            "/api/v1/fragmentation?cluster=A_B | cluster",
            "/api/v1/fragmentation/series?from=2026-08-12T11:00:00Z&to=2026-08-12T13:00:00Z&step=hourly | step",
            "/api/v1/fragmentation/series?from=2026-08-12T11:00:00Z&to=2026-08-12T13:00:00Z&step=PT10S | step",
            "/api/v1/fragmentation/series?from=2026-08-01T00:00:00Z&to=2026-08-12T13:00:00Z&step=PT1M | step",
            "/api/v1/fragmentation/series?from=2026-08-12T13:00:00Z&to=2026-08-12T11:00:00Z | to",
            "/api/v1/fragmentation/series?to=2026-08-12T11:00:00Z | from",
    })
    void badQueriesAreProblems(String url, String field) {
        given().urlEncodingEnabled(false).get(url).then().statusCode(400)
                .contentType("application/problem+json").body("field", equalTo(field));
    }
}
