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
import java.util.List;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * GPUs held through ResourceClaims, worked out by hand. One ResourceSlice of NVIDIA's DRA driver on node dra-n1
 * publishes gpu-0 (GPU-D0), gpu-1 (GPU-D1, MIG mode) with its 3g.40gb device, gpu-2 (GPU-D2) and gpu-3 (GPU-D3).
 * <ul>
 *   <li>w/whole holds gpu-0 10:00–12:00: 2 h; w/mon reads gpu-0 through an admin-access claim, which namespace w
 *   admits (resource.kubernetes.io/admin-access=true): nothing.</li>
 *   <li>m/mig holds the 3g.40gb device 10:00–13:30: 3.5 h × 3/7 = 1.5 h on GPU-D1.</li>
 *   <li>s/s1 (10:00–14:00) and s/s2 (11:00–12:00) share one claim on gpu-2: s1 1 + 0.5 + 2 = 3.5 h, s2 0.5 h.</li>
 *   <li>d/del holds gpu-3 10:00–11:00; its claim's deletion is requested at 10:30 while the pod runs: 1 h.</li>
 * </ul>
 * Requested hours are the claims' requests, whole: w 2, m 1.5, s 4 + 1 = 5, d 1.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class DraClaimsResourceTest {

    static final String DAY = "2026-10-01T";
    static final String SLICE = "{\"name\":\"dra-n1-gpu.nvidia.com-7x2lp\",\"resourceVersion\":\"100\",\"type\":\"ADDED\","
            + "\"observedAt\":\"" + DAY + "09:00:00Z\",\"driver\":\"gpu.nvidia.com\",\"pool\":\"dra-n1\",\"poolGeneration\":1,"
            + "\"nodeName\":\"dra-n1\",\"devices\":["
            + gpu("gpu-0", "GPU-D0") + "," + gpu("gpu-1", "GPU-D1") + ","
            + "{\"name\":\"gpu-1-mig-2-4-4\",\"attributes\":{\"type\":\"mig\",\"uuid\":\"MIG-4f7d\",\"parentUUID\":\"GPU-D1\","
            + "\"profile\":\"3g.40gb\",\"productName\":\"NVIDIA A100-SXM4-80GB\"},\"capacity\":{\"memory\":\"40Gi\",\"multiprocessors\":\"42\"}},"
            + gpu("gpu-2", "GPU-D2") + "," + gpu("gpu-3", "GPU-D3") + "]}";

    static String gpu(String name, String uuid) {
        return "{\"name\":\"" + name + "\",\"attributes\":{\"type\":\"gpu\",\"uuid\":\"" + uuid + "\","
                + "\"productName\":\"NVIDIA A100-SXM4-80GB\"},\"capacity\":{\"memory\":\"80Gi\"}}";
    }

    static String namespace(String name) {
        String admits = name.equals("w") ? ",\"resource.kubernetes.io/admin-access\":\"true\"" : "";
        return "{\"name\":\"" + name + "\",\"resourceVersion\":\"1\",\"type\":\"ADDED\",\"observedAt\":\"" + DAY
                + "00:00:00Z\",\"labels\":{\"gpumeter.io/tenant\":\"dra-" + name + "\"" + admits + "}}";
    }

    /** A pod scheduled at {@code start} whose containers all ended at {@code end}; no GPU resources, one claim. */
    static String pod(String ns, String name, String rv, String start, String end, String claim) {
        return "{\"uid\":\"" + ns + "-" + name + "\",\"namespace\":\"" + ns + "\",\"name\":\"" + name + "\",\"resourceVersion\":\"" + rv
                + "\",\"type\":\"MODIFIED\",\"observedAt\":\"" + DAY + "15:00:00Z\",\"createdAt\":\"" + DAY + start + "Z\","
                + "\"scheduledAt\":\"" + DAY + start + "Z\",\"nodeName\":\"dra-n1\",\"owner\":{\"kind\":\"Job\",\"name\":\"" + name + "\"},"
                + (end == null ? "" : "\"allTerminated\":true,\"lastFinishedAt\":\"" + DAY + end + "Z\",")
                + "\"claims\":[{\"name\":\"gpu\",\"claimName\":\"" + claim + "\"}]}";
    }

    static String claim(String ns, String name, String rv, String type, String extra, String device, boolean admin,
                        String... pods) {
        StringBuilder reserved = new StringBuilder();
        for (String p : pods) {
            reserved.append(reserved.length() == 0 ? "" : ",").append("{\"resource\":\"pods\",\"name\":\"").append(p)
                    .append("\",\"uid\":\"").append(ns).append("-").append(p).append("\"}");
        }
        return "{\"uid\":\"c-" + name + "\",\"namespace\":\"" + ns + "\",\"name\":\"" + name + "\",\"resourceVersion\":\"" + rv + "\","
                + "\"type\":\"" + type + "\",\"observedAt\":\"" + DAY + "10:00:00Z\"," + extra
                + "\"requests\":[{\"name\":\"gpu\",\"deviceClassName\":\"" + (device.contains("mig") ? "mig" : "gpu")
                + ".nvidia.com\",\"count\":1,\"adminAccess\":" + admin + "}],\"allocated\":true,"
                + "\"results\":[{\"request\":\"gpu\",\"driver\":\"gpu.nvidia.com\",\"pool\":\"dra-n1\",\"device\":\"" + device + "\""
                + (admin ? ",\"adminAccess\":true" : "") + "}],\"reservedFor\":[" + reserved + "]}";
    }

    private static boolean sent;

    @BeforeEach
    void sendOnce() {
        if (!sent) {
            stream();
            sent = true;
        }
    }

    static void stream() {
        String facts = "{\"cluster\":\"dra\",\"namespaces\":[" + String.join(",", namespace("w"), namespace("m"), namespace("s"),
                namespace("d")) + "],\"pods\":[" + String.join(",",
                pod("w", "whole", "10", "10:00:00", "12:00:00", "whole-c"),
                pod("w", "mon", "11", "10:00:00", "12:00:00", "mon-c"),
                pod("m", "mig", "12", "10:00:00", "13:30:00", "mig-c"),
                pod("s", "s1", "13", "10:00:00", "14:00:00", "shared-c"),
                pod("s", "s2", "14", "11:00:00", "12:00:00", "shared-c"),
                pod("d", "del", "15", "10:00:00", "11:00:00", "del-c"))
                + "],\"resourceClaims\":[" + String.join(",",
                claim("w", "whole-c", "20", "ADDED", "", "gpu-0", false, "whole"),
                claim("w", "mon-c", "21", "ADDED", "", "gpu-0", true, "mon"),
                claim("m", "mig-c", "22", "ADDED", "", "gpu-1-mig-2-4-4", false, "mig"),
                claim("s", "shared-c", "23", "ADDED", "", "gpu-2", false, "s1"),
                claim("s", "shared-c", "24", "MODIFIED", "", "gpu-2", false, "s1", "s2"),
                claim("d", "del-c", "25", "ADDED", "", "gpu-3", false, "del"),
                claim("d", "del-c", "26", "MODIFIED", "\"deletionTimestamp\":\"" + DAY + "10:30:00Z\",", "gpu-3", false, "del"),
                claim("d", "del-c", "27", "DELETED", "\"deletionTimestamp\":\"" + DAY + "10:30:00Z\",", "gpu-3", false))
                + "],\"resourceSlices\":[" + SLICE + "]}";
        given().contentType(ContentType.JSON).body(facts).post("/api/v1/facts").then().statusCode(200);
    }

    @Test
    void occupantsAtAnInstantNameTheCardsOfTheClaims() {
        List<String> onD0 = given().queryParam("at", DAY + "11:30:00Z").get("/api/v1/gpus/GPU-D0/occupants")
                .then().statusCode(200).extract().jsonPath().getList("pod");
        assertEquals(List.of("whole"), onD0, "the admin-access reader is not an occupant");
        JsonPath mig = given().queryParam("at", DAY + "10:45:00Z").get("/api/v1/gpus/GPU-D1/occupants")
                .then().statusCode(200).extract().jsonPath().using(BIG);
        assertEquals(List.of("mig"), mig.getList("pod"));
        assertEquals("MIG", mig.getString("[0].unit.kind"));
        assertEquals("3g.40gb", mig.getString("[0].unit.migProfile"));
        assertEquals(0, new BigDecimal("0.428571428571").compareTo(new BigDecimal(mig.getString("[0].fraction"))));
        JsonPath alone = given().queryParam("at", DAY + "10:30:00Z").get("/api/v1/gpus/GPU-D2/occupants")
                .then().statusCode(200).extract().jsonPath().using(BIG);
        assertEquals(List.of("s1"), alone.getList("pod"));
        assertEquals(0, BigDecimal.ONE.compareTo(new BigDecimal(alone.getString("[0].fraction"))));
        JsonPath shared = given().queryParam("at", DAY + "11:30:00Z").get("/api/v1/gpus/GPU-D2/occupants")
                .then().statusCode(200).extract().jsonPath().using(BIG);
        assertEquals(List.of("s1", "s2"), shared.getList("pod").stream().sorted().toList());
        assertEquals(0, new BigDecimal("0.5").compareTo(new BigDecimal(shared.getString("[0].fraction"))));
        assertEquals(0, new BigDecimal("0.5").compareTo(new BigDecimal(shared.getString("[1].fraction"))));
        List<String> afterDeletionAsked = given().queryParam("at", DAY + "10:45:00Z").get("/api/v1/gpus/GPU-D3/occupants")
                .then().statusCode(200).extract().jsonPath().getList("pod");
        assertEquals(List.of("del"), afterDeletionAsked, "a reserved claim outlives its deletion request");
        List<String> afterPod = given().queryParam("at", DAY + "11:00:01Z").get("/api/v1/gpus/GPU-D3/occupants")
                .then().statusCode(200).extract().jsonPath().getList("pod");
        assertEquals(List.of(), afterPod);
    }

    @Test
    void gpuHoursByNamespaceAndByOwner() {
        JsonPath byNamespace = hours("namespace");
        assertEquals(0, new BigDecimal("2").compareTo(allocated(byNamespace, "w")));
        // 3/7 is kept to twelve decimals, so 3.5 h of it is 1.5 h to within 1e-11
        assertEquals(new BigDecimal("1.500000"), allocated(byNamespace, "m").setScale(6, java.math.RoundingMode.HALF_EVEN));
        assertEquals(0, new BigDecimal("4").compareTo(allocated(byNamespace, "s")));
        assertEquals(0, new BigDecimal("1").compareTo(allocated(byNamespace, "d")));
        JsonPath byOwner = hours("owner");
        assertEquals(0, new BigDecimal("3.5").compareTo(allocated(byOwner, "Job/s1")));
        assertEquals(0, new BigDecimal("0.5").compareTo(allocated(byOwner, "Job/s2")));
        org.junit.jupiter.api.Assertions.assertNull(byOwner.get("find { it.key == 'Job/mon' }"), "admin access bills nothing");
    }

    @Test
    void reconciliationAsksTheClaimsRequestsWhole() {
        JsonPath json = given().queryParam("from", DAY + "00:00:00Z").queryParam("to", "2026-10-02T00:00:00Z")
                .queryParam("groupBy", "namespace").queryParam("cluster", "dra").get("/api/v1/reconciliation")
                .then().statusCode(200).extract().jsonPath().using(BIG);
        assertEquals(0, new BigDecimal("5").compareTo(new BigDecimal(json.getString("find { it.key == 's' }.requestedGpuHours"))));
        assertEquals(0, new BigDecimal("4").compareTo(new BigDecimal(json.getString("find { it.key == 's' }.allocatedGpuHours"))));
        assertEquals(0, new BigDecimal("2").compareTo(new BigDecimal(json.getString("find { it.key == 'w' }.requestedGpuHours"))));
        assertEquals(new BigDecimal("1.500000"), new BigDecimal(json.getString("find { it.key == 'm' }.requestedGpuHours"))
                .setScale(6, java.math.RoundingMode.HALF_EVEN));
    }

    @Test
    void sendingTheStreamTwiceStoresNothing() {
        stream();
        assertEquals(0, new BigDecimal("4").compareTo(allocated(hours("namespace"), "s")));
    }

    @Test
    void aSliceArrivingAfterItsClaimNamesTheCardThen() {
        String early = "{\"cluster\":\"dra-late\",\"pods\":[" + pod("w", "whole", "10", "10:00:00", "12:00:00", "whole-c")
                + "],\"resourceClaims\":[" + claim("w", "whole-c", "20", "ADDED", "", "gpu-0", false, "whole") + "]}";
        given().contentType(ContentType.JSON).body(early).post("/api/v1/facts").then().statusCode(200);
        // Until the slice is known the device is a whole card of unknown identity: billed, but on no card.
        assertEquals(List.of(), given().queryParam("at", DAY + "11:00:00Z").queryParam("cluster", "dra-late")
                .get("/api/v1/nodes/dra-n1/occupants").then().statusCode(200).extract().jsonPath().getList("gpuUuid").stream()
                .filter(java.util.Objects::nonNull).toList());
        String late = "{\"cluster\":\"dra-late\",\"resourceSlices\":[" + SLICE + "]}";
        given().contentType(ContentType.JSON).body(late).post("/api/v1/facts").then().statusCode(200);
        JsonPath named = given().queryParam("at", DAY + "11:00:00Z").queryParam("cluster", "dra-late")
                .get("/api/v1/nodes/dra-n1/occupants").then().statusCode(200).extract().jsonPath();
        assertEquals(List.of("GPU-D0"), named.getList("gpuUuid"));
        assertEquals("dra-claim", named.getString("[0].unit.source"));
    }

    @Test
    void aClaimWithoutItsDeviceOrWithABadKeyIsRefusedWhole() {
        String noDevice = "{\"cluster\":\"dra-bad\",\"resourceClaims\":[" + claim("w", "x", "1", "ADDED", "", "gpu-0", false, "p")
                .replace("\"device\":\"gpu-0\"", "\"device\":\"\"") + "]}";
        given().contentType(ContentType.JSON).body(noDevice).post("/api/v1/facts").then().statusCode(400)
                .contentType("application/problem+json").body("field", org.hamcrest.Matchers.equalTo("resourceClaims[0].results[0].device"));
        String noPool = "{\"cluster\":\"dra-bad\",\"resourceSlices\":[" + SLICE.replace("\"pool\":\"dra-n1\",", "") + "]}";
        given().contentType(ContentType.JSON).body(noPool).post("/api/v1/facts").then().statusCode(400)
                .contentType("application/problem+json").body("field", org.hamcrest.Matchers.equalTo("resourceSlices[0].pool"));
    }

    static final JsonPathConfig BIG = new JsonPathConfig(JsonPathConfig.NumberReturnType.BIG_DECIMAL);

    static JsonPath hours(String groupBy) {
        return given().queryParam("from", DAY + "00:00:00Z").queryParam("to", "2026-10-02T00:00:00Z")
                .queryParam("groupBy", groupBy).get("/api/v1/gpu-hours").then().statusCode(200).extract().jsonPath().using(BIG);
    }

    static BigDecimal allocated(JsonPath json, String key) {
        return new BigDecimal(json.getString("find { it.key == '" + key + "' }.allocatedGpuHours"));
    }
}
