package io.gpumeter.ledger.rest;

import io.gpumeter.common.testing.Contract;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The supply read on a small fleet, cluster "sup" (no other test writes there), window [1 June 2026, 3 June 2026) UTC,
 * worked out by hand:
 * <pre>
 * A100 (reported as "NVIDIA A100-SXM4-80GB" by HAMi's registration and the DRA slice, "NVIDIA-A100-SXM4-80GB" by
 *      feature discovery: one model, named canonically "NVIDIA A100 SXM4 80GB" as the demand read names it)
 *   a-1  created 19 May, seen from 20 May; HAMi registers A1 and A2 (split 4). The runbook cordons it 2 June
 *        06:00-10:00 (gpumeter.io/cordoned-by). A1's DBE count is 2 from 1 June 12:00 to 14:00: a GPU health incident,
 *        repaired after 7200 s. A2's row remap is pending from 2 June 08:00, never cleared: open at the end.
 *        From 2 June 12:00 a pod holds a 20480 MiB, 25-core vGPU of A1.
 *   a-2  created 1 May, first seen 1 June 12:00; labelled 2 cards. From 2 June 12:00 a pod holds one whole.
 *   d-1  created 27 May, seen from 28 May; its DRA slice (seen 00:05, with the first sighting) publishes D1.
 *   days 1 June: a-1 2x24 + a-2 2x24 + d-1 24 = 120; cordoned 0; failed 2 (A1); usable 118.
 *        2 June: 120; cordoned 2x4 = 8; failed 16 (A2 08:00-24:00); usable 120 - 8 - 16 + 2 (A2 08:00-10:00 both) = 98.
 *   end  5 cards, A2 failed: usable 4. Shapes of A1, a-2's two, D1:
 *        whole: A1 (a vGPU on it: 0 more), a-2 #0 (held: 0), #1 (1): cards 3, units 3, free 1;
 *        hami: A1, 4 shares of 20480 MiB and 25 cores when empty, 61440 MiB, 75 cores and 3 slots free: 3 more;
 *        dra:gpu.nvidia.com: D1, 1 and 1.
 *   failures 2 card incidents + 1 runbook cordon = 3; repaired 1 (A1), MTTR 7200 s; 3 / 240 = 0.0125 per card-hour;
 *        8 card-hours under the runbook's cordon. maintenance: none.
 *   inventory since a-2's creation, 1 May.
 * H100 ("NVIDIA-H100-80GB-HBM3", named "NVIDIA H100 80GB HBM3")
 *   h-1  created 24 May, seen from 25 May; 1 card, MIG mixed, feature discovery counts 3g.40gb instances. From
 *        2 June 12:00 a pod holds a 3g.40gb: of the card's 7 slices 3 held, room for one more of 3.
 *   h-2  created 24 May 12:00, seen from 25 May; 3 whole cards; cordoned by a person 1 June 06:00-18:00.
 *   days 1 June: 24 + 72 = 96; cordoned 3x12 = 36; usable 60. 2 June: 96, usable 96. Sum 192.
 *   end  4 cards, all usable. whole: h-2's 3, free 3; mig-3g.40gb: h-1's card, 2 when empty, 1 more.
 *   failures none: 0 per card-hour, no MTTR. maintenance 1 cordon, 36 card-hours, 36 / 192 = 0.1875.
 * </pre>
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class SupplyResourceTest {

    static final String CLUSTER = "sup";
    static final String FROM = "2026-06-01T00:00:00Z";
    static final String TO = "2026-06-03T00:00:00Z";
    static final String A100 = "NVIDIA A100-SXM4-80GB";
    static final String A100_GFD = "NVIDIA-A100-SXM4-80GB";
    static final String H100 = "NVIDIA-H100-80GB-HBM3";
    private static boolean loaded;

    static String node(String name, String at, String labels, String gpus) {
        return "{\"name\":\"" + name + "\",\"uid\":\"u-" + name + "\",\"resourceVersion\":\"1\",\"type\":\"ADDED\",\"observedAt\":\""
                + at + "\",\"labels\":{" + labels + "},\"gpus\":[" + gpus + "]}";
    }

    static String hamiCard(String uuid) {
        return "{\"uuid\":\"" + uuid + "\",\"model\":\"" + A100 + "\",\"memoryMib\":81920,\"cores\":100,\"splitCount\":4}";
    }

    static String status(String name, int rv, String at, String created, boolean cordoned, String marks) {
        return "{\"name\":\"" + name + "\",\"uid\":\"u-" + name + "\",\"resourceVersion\":\"" + rv + "\",\"type\":\"MODIFIED\","
                + "\"observedAt\":\"" + at + "\",\"createdAt\":\"" + created + "\",\"capacity\":{},\"allocatable\":{},"
                + "\"unschedulable\":" + cordoned + ",\"taints\":[],\"gpuLabels\":{},\"suiteAnnotations\":{" + marks + "}}";
    }

    static String pod(String name, String node, String resources, String vgpus) {
        return "{\"uid\":\"s-" + name + "\",\"namespace\":\"sup-ns\",\"name\":\"" + name + "\",\"resourceVersion\":\"2\","
                + "\"type\":\"MODIFIED\",\"observedAt\":\"2026-06-02T12:00:00Z\",\"scheduledAt\":\"2026-06-02T12:00:00Z\","
                + "\"nodeName\":\"" + node + "\",\"gpuResources\":" + resources + ",\"vgpus\":" + vgpus
                + ("[]".equals(vgpus) ? "" : ",\"hamiBindPhase\":\"success\",\"hamiNode\":\"" + node + "\"") + "}";
    }

    static String reading(String card, String field, long value, String at) {
        return "{\"gpuUuid\":\"" + card + "\",\"node\":\"a-1\",\"scope\":\"DEVICE\",\"scopeKey\":\"\",\"field\":\"" + field
                + "\",\"value\":" + value + ",\"at\":\"" + at + "\"}";
    }

    @BeforeEach
    void load() {
        if (loaded) {
            return;
        }
        loaded = true;
        String a100 = "\"nvidia.com/gpu.product\":\"" + A100_GFD + "\"";
        String slice = "{\"name\":\"d-1-gpu.nvidia.com-a\",\"resourceVersion\":\"3\",\"type\":\"ADDED\",\"observedAt\":"
                + "\"2026-05-28T00:05:00Z\",\"driver\":\"gpu.nvidia.com\",\"pool\":\"d-1\",\"poolGeneration\":1,\"nodeName\":\"d-1\","
                + "\"devices\":[{\"name\":\"gpu-0\",\"attributes\":{\"type\":\"gpu\",\"uuid\":\"GPU-D1\",\"productName\":\"" + A100
                + "\"},\"capacity\":{\"memory\":\"80Gi\"}}]}";
        String facts = "{\"cluster\":\"" + CLUSTER + "\",\"nodes\":[" + String.join(",",
                node("a-1", "2026-05-20T00:00:00Z", a100, hamiCard("GPU-A1") + "," + hamiCard("GPU-A2")),
                node("a-2", "2026-06-01T12:00:00Z", a100 + ",\"nvidia.com/gpu.count\":\"2\",\"nvidia.com/gpu.memory\":\"81920\"", ""),
                node("d-1", "2026-05-28T00:00:00Z", "", ""),
                node("h-1", "2026-05-25T00:00:00Z", "\"nvidia.com/gpu.product\":\"" + H100 + "\",\"nvidia.com/gpu.count\":\"1\","
                        + "\"nvidia.com/mig.strategy\":\"mixed\",\"nvidia.com/mig-3g.40gb.count\":\"2\"", ""),
                node("h-2", "2026-05-25T00:00:00Z", "\"nvidia.com/gpu.product\":\"" + H100 + "\",\"nvidia.com/gpu.count\":\"3\","
                        + "\"nvidia.com/gpu.memory\":\"81920\"", ""))
                + "],\"pods\":[" + String.join(",",
                pod("hami", "a-1", "{\"nvidia.com/gpu\":1,\"nvidia.com/gpumem\":20480,\"nvidia.com/gpucores\":25}",
                        "[{\"container\":0,\"uuid\":\"GPU-A1\",\"type\":\"NVIDIA\",\"memoryMib\":20480,\"cores\":25}]"),
                pod("whole", "a-2", "{\"nvidia.com/gpu\":1}", "[]"),
                pod("mig", "h-1", "{\"nvidia.com/mig-3g.40gb\":1}", "[]"))
                + "],\"resourceSlices\":[" + slice + "]}";
        given().contentType(ContentType.JSON).body(facts).post("/api/v1/facts").then().statusCode(200);
        String runbook = "\"gpumeter.io/cordoned-by\":\"alert-service\",\"gpumeter.io/cordon-reason\":\"Xid 48\"";
        String statuses = "{\"cluster\":\"" + CLUSTER + "\",\"nodeStatuses\":[" + String.join(",",
                status("a-1", 10, "2026-05-20T00:00:00Z", "2026-05-19T00:00:00Z", false, ""),
                status("a-1", 20, "2026-06-02T06:00:00Z", "2026-05-19T00:00:00Z", true, runbook),
                status("a-1", 30, "2026-06-02T10:00:00Z", "2026-05-19T00:00:00Z", false, ""),
                status("a-2", 5, "2026-06-01T12:00:00Z", "2026-05-01T00:00:00Z", false, ""),
                status("d-1", 1, "2026-05-28T00:00:00Z", "2026-05-27T00:00:00Z", false, ""),
                status("h-1", 1, "2026-05-25T00:00:00Z", "2026-05-24T00:00:00Z", false, ""),
                status("h-2", 10, "2026-05-25T00:00:00Z", "2026-05-24T12:00:00Z", false, ""),
                status("h-2", 20, "2026-06-01T06:00:00Z", "2026-05-24T12:00:00Z", true, ""),
                status("h-2", 30, "2026-06-01T18:00:00Z", "2026-05-24T12:00:00Z", false, "")) + "]}";
        given().contentType(ContentType.JSON).body(statuses).post("/api/v1/facts/governance").then().statusCode(200);
        String usage = "{\"cluster\":\"" + CLUSTER + "\",\"samples\":[" + String.join(",",
                reading("GPU-A1", "ECC_DBE_VOLATILE", 0, "2026-06-01T10:00:00Z"),
                reading("GPU-A1", "ECC_DBE_VOLATILE", 2, "2026-06-01T12:00:00Z"),
                reading("GPU-A1", "ECC_DBE_VOLATILE", 0, "2026-06-01T14:00:00Z"),
                reading("GPU-A2", "ROW_REMAP_PENDING", 0, "2026-06-02T07:59:30Z"),
                reading("GPU-A2", "ROW_REMAP_PENDING", 1, "2026-06-02T08:00:00Z"),
                reading("GPU-A2", "ROW_REMAP_PENDING", 1, "2026-06-02T08:00:30Z")) + "]}";
        given().contentType(ContentType.JSON).body(usage).post("/api/v1/usage").then().statusCode(200);
    }

    static JsonPath supply(String timeZone) {
        var request = given().queryParam("from", FROM).queryParam("to", TO).queryParam("cluster", CLUSTER);
        if (timeZone != null) {
            request.queryParam("timeZone", timeZone);
        }
        String answer = request.get("/api/v1/capacity/supply").then().statusCode(200).extract().asString();
        if (timeZone == null) {
            Contract.record("ledger", "supply", answer); // slo-service's capacity plan reads it
        }
        return new JsonPath(answer).using(new JsonPathConfig(JsonPathConfig.NumberReturnType.BIG_DECIMAL));
    }

    static void assertDecimal(String expected, Object actual) {
        assertEquals(0, new BigDecimal(expected).compareTo(new BigDecimal(String.valueOf(actual))),
                "expected " + expected + ", got " + actual);
    }

    static void assertDays(JsonPath json, String model, List<String> labels, String... figures) {
        assertEquals(labels, json.getList(model + ".days.day"));
        for (int i = 0; i < labels.size(); i++) {
            String[] f = figures[i].split(" ");
            String day = model + ".days[" + i + "].";
            assertDecimal(f[0], json.get(day + "cardHours"));
            assertDecimal(f[1], json.get(day + "cordonedCardHours"));
            assertDecimal(f[2], json.get(day + "failedCardHours"));
            assertDecimal(f[3], json.get(day + "usableCardHours"));
        }
    }

    static void assertShape(JsonPath json, String shape, String name, String kind, int cards, int units, int free) {
        assertEquals(name, json.getString(shape + ".shape"));
        assertEquals(kind, json.getString(shape + ".kind"));
        assertEquals(List.of(cards, units, free), List.of(json.getInt(shape + ".cards"), json.getInt(shape + ".units"),
                json.getInt(shape + ".freeUnits")));
    }

    @Test
    void theA100sTwoSpellingsAreOneModelWithItsFailuresAndTheRunbooksCordon() {
        JsonPath json = supply(null);
        assertEquals(FROM, json.getString("from"));
        assertEquals(TO, json.getString("to"));
        assertEquals("UTC", json.getString("timeZone"));
        assertEquals(CLUSTER, json.getString("cluster"));
        assertEquals(List.of("NVIDIA A100 SXM4 80GB", "NVIDIA H100 80GB HBM3"), json.getList("models.model"));
        String m = "models[0]";
        assertEquals(List.of(A100, A100_GFD), json.getList(m + ".spellings"));
        assertEquals("2026-05-01T00:00:00Z", json.getString(m + ".inventorySince"));
        assertDays(json, m, List.of("2026-06-01", "2026-06-02"), "120 0 2 118", "120 8 16 98");
        assertEquals(TO, json.getString(m + ".end.at"));
        assertEquals(List.of(5, 0, 1, 4), List.of(json.getInt(m + ".end.cards"), json.getInt(m + ".end.cordoned"),
                json.getInt(m + ".end.failed"), json.getInt(m + ".end.usable")));
        assertEquals(3, json.getList(m + ".shapes").size());
        assertShape(json, m + ".shapes[0]", "whole", "WHOLE", 3, 3, 1);
        assertShape(json, m + ".shapes[1]", "hami", "HAMI", 1, 4, 3);
        assertShape(json, m + ".shapes[2]", "dra:gpu.nvidia.com", "DRA", 1, 1, 1);
        assertEquals(3, json.getInt(m + ".failures.incidents"));
        assertEquals(1, json.getInt(m + ".failures.repaired"));
        assertDecimal("7200", json.get(m + ".failures.mttrSeconds"));
        assertDecimal("0.0125", json.get(m + ".failures.perCardHour"));
        assertEquals(1, json.getInt(m + ".failures.runbookCordons"));
        assertDecimal("8", json.get(m + ".failures.runbookCordonCardHours"));
        assertEquals(0, json.getInt(m + ".maintenance.cordons"));
        assertDecimal("0", json.get(m + ".maintenance.cardHours"));
        assertDecimal("0", json.get(m + ".maintenance.share"));
    }

    @Test
    void theH100sMigNodeAndAPersonsCordon() {
        JsonPath json = supply(null);
        String m = "models[1]";
        assertEquals(List.of(H100), json.getList(m + ".spellings"));
        assertEquals("2026-05-24T00:00:00Z", json.getString(m + ".inventorySince"));
        assertDays(json, m, List.of("2026-06-01", "2026-06-02"), "96 36 0 60", "96 0 0 96");
        assertEquals(List.of(4, 0, 0, 4), List.of(json.getInt(m + ".end.cards"), json.getInt(m + ".end.cordoned"),
                json.getInt(m + ".end.failed"), json.getInt(m + ".end.usable")));
        assertEquals(2, json.getList(m + ".shapes").size());
        assertShape(json, m + ".shapes[0]", "whole", "WHOLE", 3, 3, 3);
        assertShape(json, m + ".shapes[1]", "mig-3g.40gb", "MIG", 1, 2, 1);
        assertEquals(0, json.getInt(m + ".failures.incidents"));
        assertEquals(0, json.getInt(m + ".failures.repaired"));
        assertNull(json.get(m + ".failures.mttrSeconds"));
        assertDecimal("0", json.get(m + ".failures.perCardHour"));
        assertEquals(0, json.getInt(m + ".failures.runbookCordons"));
        assertEquals(1, json.getInt(m + ".maintenance.cordons"));
        assertDecimal("36", json.get(m + ".maintenance.cardHours"));
        assertDecimal("0.1875", json.get(m + ".maintenance.share"));
    }

    @Test
    void eachModelsCardHoursAreWhatTheCapacityReadCounts() {
        JsonPath json = given().queryParam("from", FROM).queryParam("to", TO).queryParam("groupBy", "model,day")
                .queryParam("cluster", CLUSTER).get("/api/v1/capacity").then().statusCode(200).extract().jsonPath();
        Map<String, BigDecimal> capacity = new LinkedHashMap<>();
        List<String> keys = json.getList("key");
        for (int i = 0; i < keys.size(); i++) {
            capacity.put(keys.get(i), new BigDecimal(json.getString("[" + i + "].cardHours")));
        }
        assertEquals(Map.of(A100 + "/2026-06-01", new BigDecimal("120"), A100 + "/2026-06-02", new BigDecimal("120"),
                H100 + "/2026-06-01", new BigDecimal("96"), H100 + "/2026-06-02", new BigDecimal("96")), capacity);
    }

    @Test
    void daysSplitAtTheZonesMidnights() {
        /*
         * Berlin is UTC+2 in June: 1 June ends 22:00Z (22 h), 2 June is 24 h, 3 June's first 2 h close the window.
         * H100: 4 cards x 22 = 88 with the whole cordon (36); 96; 4 x 2 = 8.
         */
        JsonPath json = supply("Europe/Berlin");
        assertEquals("Europe/Berlin", json.getString("timeZone"));
        assertDays(json, "models[1]", List.of("2026-06-01", "2026-06-02", "2026-06-03"), "88 36 0 52", "96 0 0 96",
                "8 0 0 8");
    }

    @ParameterizedTest(name = "{0}: from={1} to={2} timeZone={3} cluster={4}")
    @CsvSource(nullValues = "NULL", value = {
            "from,     NULL,                 2026-06-03T00:00:00Z, NULL,         NULL",
            "from,     yesterday,            2026-06-03T00:00:00Z, NULL,         NULL",
            "to,       2026-06-01T00:00:00Z, NULL,                 NULL,         NULL",
            "to,       2026-06-03T00:00:00Z, 2026-06-01T00:00:00Z, NULL,         NULL",
            "to,       2026-06-01T00:00:00Z, 2026-06-01T00:00:00Z, NULL,         NULL",
            "to,       2025-01-01T00:00:00Z, 2026-06-01T00:00:00Z, NULL,         NULL",
            "timeZone, 2026-06-01T00:00:00Z, 2026-06-03T00:00:00Z, Mars/Olympus, NULL",
            "cluster,  2026-06-01T00:00:00Z, 2026-06-03T00:00:00Z, NULL,         Not_A_Cluster",
    })
    void badInputIsAProblemNamingTheField(String field, String from, String to, String timeZone, String cluster) {
        var request = given();
        if (from != null) {
            request.queryParam("from", from);
        }
        if (to != null) {
            request.queryParam("to", to);
        }
        if (timeZone != null) {
            request.queryParam("timeZone", timeZone);
        }
        if (cluster != null) {
            request.queryParam("cluster", cluster);
        }
        request.get("/api/v1/capacity/supply").then().statusCode(400)
                .contentType("application/problem+json")
                .body("field", equalTo(field))
                .body("detail", containsString(field));
    }
}
