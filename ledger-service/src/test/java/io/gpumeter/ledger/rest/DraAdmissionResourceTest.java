package io.gpumeter.ledger.rest;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.gpumeter.common.testing.Management;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.path.json.config.JsonPathConfig;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What Kubernetes admits of DRA, and only that, is taken as it comes. One ResourceSlice on node adm-n1 publishes
 * gpu-0…gpu-4 (GPU-E0…GPU-E4); every pod runs 10:00–12:00 unless said otherwise.
 * <ul>
 *   <li>adm-lab/mon reads gpu-0 through an admin-access claim; adm-lab carries
 *   resource.kubernetes.io/admin-access=true: nothing, no finding.</li>
 *   <li>adm-unl/mon does the same on gpu-1, its namespace unlabelled: an ordinary card, 2 h, and a finding.</li>
 *   <li>adm-late/mon does the same on gpu-2 10:00–14:00; its namespace is labelled later, set at 12:00: 4 h and a
 *   finding until then, 2 h (10:00–12:00) after.</li>
 *   <li>adm-forge's claim steal (gpu-3) is reserved for adm-victim/worker, a pod of another namespace, which arrives
 *   after the claim and holds its own claim own (gpu-4): the victim is billed 2 h for gpu-4 and nothing for gpu-3,
 *   and the claim is a finding; adm-forge/thief names steal but was never reserved for it: nothing.</li>
 * </ul>
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class DraAdmissionResourceTest {

    static final String DAY = "2026-10-03T";
    static final String CLUSTER = "dra-adm";
    static final JsonPathConfig BIG = new JsonPathConfig(JsonPathConfig.NumberReturnType.BIG_DECIMAL);

    static final String SLICE = "{\"name\":\"adm-n1-gpu.nvidia.com-q8\",\"resourceVersion\":\"100\",\"type\":\"ADDED\","
            + "\"observedAt\":\"" + DAY + "09:00:00Z\",\"driver\":\"gpu.nvidia.com\",\"pool\":\"adm-n1\",\"poolGeneration\":1,"
            + "\"nodeName\":\"adm-n1\",\"devices\":[" + gpu(0) + "," + gpu(1) + "," + gpu(2) + "," + gpu(3) + "," + gpu(4) + "]}";

    static String gpu(int i) {
        return "{\"name\":\"gpu-" + i + "\",\"attributes\":{\"type\":\"gpu\",\"uuid\":\"GPU-E" + i + "\","
                + "\"productName\":\"NVIDIA A100-SXM4-80GB\"},\"capacity\":{\"memory\":\"80Gi\"}}";
    }

    static String namespace(String name, String rv, String observed, String adminLabelSetAt, boolean labelled) {
        return "{\"name\":\"" + name + "\",\"resourceVersion\":\"" + rv + "\",\"type\":\"" + ("1".equals(rv) ? "ADDED" : "MODIFIED")
                + "\",\"observedAt\":\"" + DAY + observed + "Z\",\"labels\":{\"gpumeter.io/tenant\":\"" + name + "\""
                + (labelled ? ",\"resource.kubernetes.io/admin-access\":\"true\"" : "") + "}"
                + (adminLabelSetAt == null ? "" : ",\"labelTimes\":{\"resource.kubernetes.io/admin-access\":\"" + DAY + adminLabelSetAt + "Z\"}")
                + "}";
    }

    static String pod(String ns, String name, String rv, String end, String claim) {
        return "{\"uid\":\"" + ns + "-" + name + "\",\"namespace\":\"" + ns + "\",\"name\":\"" + name + "\",\"resourceVersion\":\"" + rv
                + "\",\"type\":\"MODIFIED\",\"observedAt\":\"" + DAY + "15:00:00Z\",\"createdAt\":\"" + DAY + "10:00:00Z\","
                + "\"scheduledAt\":\"" + DAY + "10:00:00Z\",\"nodeName\":\"adm-n1\",\"owner\":{\"kind\":\"Job\",\"name\":\"" + name + "\"},"
                + "\"allTerminated\":true,\"lastFinishedAt\":\"" + DAY + end + "Z\","
                + "\"claims\":[{\"name\":\"gpu\",\"claimName\":\"" + claim + "\"}]}";
    }

    /** A claim of {@code ns} allocated {@code device}, reserved for the pods of these uids. */
    static String claim(String ns, String name, String device, boolean admin, String... podUids) {
        StringBuilder reserved = new StringBuilder();
        for (String uid : podUids) {
            reserved.append(reserved.length() == 0 ? "" : ",").append("{\"resource\":\"pods\",\"name\":\"")
                    .append(uid.substring(uid.lastIndexOf('-') + 1)).append("\",\"uid\":\"").append(uid).append("\"}");
        }
        return "{\"uid\":\"c-" + ns + "-" + name + "\",\"namespace\":\"" + ns + "\",\"name\":\"" + name + "\",\"resourceVersion\":\"1\","
                + "\"type\":\"ADDED\",\"observedAt\":\"" + DAY + "10:00:00Z\","
                + "\"requests\":[{\"name\":\"gpu\",\"deviceClassName\":\"gpu.nvidia.com\",\"count\":1,\"adminAccess\":" + admin + "}],"
                + "\"allocated\":true,\"results\":[{\"request\":\"gpu\",\"driver\":\"gpu.nvidia.com\",\"pool\":\"adm-n1\",\"device\":\""
                + device + "\"" + (admin ? ",\"adminAccess\":true" : "") + "}],\"reservedFor\":[" + reserved + "]}";
    }

    static void post(String facts) {
        given().contentType(ContentType.JSON).body("{\"cluster\":\"" + CLUSTER + "\"," + facts + "}").post("/api/v1/facts")
                .then().statusCode(200);
    }

    private static boolean sent;

    @BeforeEach
    void sendOnce() {
        if (sent) {
            return;
        }
        post("\"namespaces\":[" + String.join(",", namespace("adm-lab", "1", "00:00:00", null, true),
                namespace("adm-unl", "1", "00:00:00", null, false), namespace("adm-late", "1", "00:00:00", null, false),
                namespace("adm-forge", "1", "00:00:00", null, false), namespace("adm-victim", "1", "00:00:00", null, false))
                + "],\"resourceSlices\":[" + SLICE + "],\"pods\":[" + String.join(",",
                pod("adm-lab", "mon", "10", "12:00:00", "mon-c"), pod("adm-unl", "mon", "11", "12:00:00", "mon-c"),
                pod("adm-late", "mon", "12", "14:00:00", "mon-c"), pod("adm-forge", "thief", "13", "12:00:00", "steal"))
                + "],\"resourceClaims\":[" + String.join(",", claim("adm-lab", "mon-c", "gpu-0", true, "adm-lab-mon"),
                claim("adm-unl", "mon-c", "gpu-1", true, "adm-unl-mon"), claim("adm-late", "mon-c", "gpu-2", true, "adm-late-mon"),
                claim("adm-forge", "steal", "gpu-3", false, "adm-victim-worker")) + "]");
        // the victim arrives after the claim naming it
        post("\"pods\":[" + pod("adm-victim", "worker", "14", "12:00:00", "own") + "],\"resourceClaims\":["
                + claim("adm-victim", "own", "gpu-4", false, "adm-victim-worker") + "]");
        sent = true;
    }

    @Test
    void adminAccessInANamespaceThatAdmitsItBillsNothingAndIsNoFinding() {
        assertEquals(List.of(), occupants("GPU-E0", "11:00:00"));
        assertNull(hours().get("find { it.key == 'adm-lab' }"));
        assertEquals(List.of(), findings("adm-lab"));
    }

    @Test
    void adminAccessInAnUnlabelledNamespaceIsAnOrdinaryCardAndAFinding() {
        JsonPath onCard = given().queryParam("at", DAY + "11:00:00Z").queryParam("cluster", CLUSTER)
                .get("/api/v1/gpus/GPU-E1/occupants").then().statusCode(200).extract().jsonPath();
        assertEquals(List.of("mon"), onCard.getList("pod"));
        assertEquals("dra-claim+admin-access-unlabelled", onCard.getString("[0].unit.source"));
        assertEquals(0, new BigDecimal("2").compareTo(allocated(hours(), "adm-unl")));
        JsonPath reconciliation = given().queryParam("from", DAY + "00:00:00Z").queryParam("to", "2026-10-04T00:00:00Z")
                .queryParam("groupBy", "namespace").get("/api/v1/reconciliation").then().statusCode(200).extract().jsonPath().using(BIG);
        assertEquals(0, new BigDecimal("2").compareTo(new BigDecimal(
                reconciliation.getString("find { it.key == 'adm-unl' }.requestedGpuHours"))), "asked as an ordinary request");
        List<Map<String, Object>> found = findings("adm-unl");
        assertEquals(1, found.size(), found.toString());
        Map<String, Object> finding = found.get(0);
        assertEquals("DRA_ADMIN_ACCESS_UNLABELLED", finding.get("kind"));
        assertEquals("CLAIM", finding.get("resource"));
        assertEquals(CLUSTER, finding.get("cluster"));
        assertEquals("GPU-E1", finding.get("gpuUuid"));
        assertEquals("mon", finding.get("pod"));
        assertEquals(DAY + "10:00:00Z", finding.get("start"));
        assertEquals(DAY + "12:00:00Z", finding.get("end"));
        assertEquals(120, finding.get("minutes"));
        assertTrue(String.valueOf(finding.get("detail")).contains("resource.kubernetes.io/admin-access=true"), finding.toString());
        assertTrue(counter("DRA_ADMIN_ACCESS_UNLABELLED") >= 1);
    }

    @Test
    void aLabelSetLaterSplitsTheBooksAtTheInstantItWasSet() {
        assertEquals(0, new BigDecimal("4").compareTo(allocated(hours(), "adm-late")), "unlabelled, the whole 10:00–14:00");
        assertEquals(DAY + "14:00:00Z", findings("adm-late").get(0).get("end"));
        // the namespace's next version carries the label, set at 12:00 according to its managedFields
        post("\"namespaces\":[" + namespace("adm-late", "2", "15:00:00", "12:00:00", true) + "]");
        assertEquals(0, new BigDecimal("2").compareTo(allocated(hours(), "adm-late")), "billed 10:00–12:00 only");
        assertEquals(List.of("mon"), occupants("GPU-E2", "11:59:59"));
        assertEquals(List.of(), occupants("GPU-E2", "12:00:00"));
        List<Map<String, Object>> found = findings("adm-late");
        assertEquals(1, found.size(), found.toString());
        assertEquals(DAY + "10:00:00Z", found.get(0).get("start"));
        assertEquals(DAY + "12:00:00Z", found.get(0).get("end"));
        assertEquals(120, found.get(0).get("minutes"));
    }

    @Test
    void aClaimReservedForAPodOfAnotherNamespaceBillsThatPodNothingAndIsReported() {
        assertEquals(List.of(), occupants("GPU-E3", "11:00:00"), "neither the victim nor the pod that never held it");
        assertEquals(List.of("worker"), occupants("GPU-E4", "11:00:00"), "a claim of the pod's own namespace still bills");
        JsonPath hours = hours();
        assertEquals(0, new BigDecimal("2").compareTo(allocated(hours, "adm-victim")), "gpu-4 only");
        assertNull(hours.get("find { it.key == 'adm-forge' }"));
        List<Map<String, Object>> found = findings("adm-forge");
        assertEquals(1, found.size(), found.toString());
        Map<String, Object> finding = found.get(0);
        assertEquals("DRA_CONSUMER_OTHER_NAMESPACE", finding.get("kind"));
        assertEquals("CLAIM", finding.get("resource"));
        assertNull(finding.get("pod"));
        assertEquals(DAY + "10:00:00Z", finding.get("start"));
        String detail = String.valueOf(finding.get("detail"));
        assertTrue(detail.contains("adm-forge/steal") && detail.contains("adm-victim/worker"), detail);
        assertEquals(List.of(), findings("adm-victim"), "the finding is the claim's namespace's");
        // each derivation of the victim that turns the entry away counts
        double before = counter("DRA_CONSUMER_OTHER_NAMESPACE");
        post("\"pods\":[" + pod("adm-victim", "worker", "15", "12:00:00", "own") + "]");
        assertTrue(counter("DRA_CONSUMER_OTHER_NAMESPACE") > before);
        assertEquals(0, new BigDecimal("2").compareTo(allocated(hours(), "adm-victim")));
    }

    static List<String> occupants(String card, String at) {
        return given().queryParam("at", DAY + at + "Z").queryParam("cluster", CLUSTER).get("/api/v1/gpus/" + card + "/occupants")
                .then().statusCode(200).extract().jsonPath().getList("pod");
    }

    static JsonPath hours() {
        return given().queryParam("from", DAY + "00:00:00Z").queryParam("to", "2026-10-04T00:00:00Z")
                .queryParam("groupBy", "namespace").get("/api/v1/gpu-hours").then().statusCode(200).extract().jsonPath().using(BIG);
    }

    static BigDecimal allocated(JsonPath json, String key) {
        return new BigDecimal(json.getString("find { it.key == '" + key + "' }.allocatedGpuHours"));
    }

    static List<Map<String, Object>> findings(String namespace) {
        List<Map<String, Object>> all = given().queryParam("from", DAY + "00:00:00Z").queryParam("to", "2026-10-04T00:00:00Z")
                .get("/api/v1/violations").then().statusCode(200).extract().jsonPath().getList("$");
        return all.stream().filter(v -> namespace.equals(v.get("namespace"))).toList();
    }

    static double counter(String kind) {
        String metrics = Management.given().get("/q/metrics").then().statusCode(200).extract().asString();
        Matcher m = Pattern.compile("^gpumeter_ledger_findings_total\\{kind=\"" + kind + "\"[^}]*} (\\S+)$", Pattern.MULTILINE)
                .matcher(metrics);
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }
}
