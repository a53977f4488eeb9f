package io.gpumeter.ledger.rest;

import io.gpumeter.common.testing.Contract;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
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

@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class CapacityResourceTest {

    private static final String H100 = "NVIDIA-H100-80GB-HBM3";
    private static final String A100 = "NVIDIA-A100-SXM4-80GB";

    private static String gpu(String uuid) {
        return "{\"uuid\":\"" + uuid + "\",\"model\":\"" + H100 + "\",\"memoryMib\":81920,\"cores\":100,\"splitCount\":1}";
    }

    private static String node(String name, String rv, String type, String at, String labels, String gpus) {
        return "{\"name\":\"" + name + "\",\"uid\":\"u-" + name + "\",\"resourceVersion\":\"" + rv + "\",\"type\":\""
                + type + "\",\"observedAt\":\"" + at + "\",\"labels\":" + labels + ",\"gpus\":[" + gpus + "]}";
    }

    private static String batch(String... nodes) {
        return "{\"cluster\":\"cap-lab\",\"nodes\":[" + String.join(",", nodes) + "]}";
    }

    /*
     * Cluster cap-lab, March 2024 (no other test writes there):
     * reg-1 registers two H100s from 1 March 00:00 and a third from 2 March 00:00, and is deleted on 4 March 00:00.
     *       Its gpu.count label (8) is ignored: the registered cards are the evidence.
     * lab-1 registers nothing; its labels say 4 A100s from 1 March 12:00, then 2 from 3 March 00:00 on.
     * A label-only node whose count label is unreadable counts nothing.
     */
    private static final String REG_LABELS = "{\"nvidia.com/gpu.product\":\"" + H100 + "\",\"nvidia.com/gpu.count\":\"8\"}";
    private static final String[] BATCHES = {
            batch(node("reg-1", "1", "ADDED", "2024-03-01T00:00:00Z", REG_LABELS, gpu("GPU-cap-1") + "," + gpu("GPU-cap-2")),
                    node("lab-1", "1", "ADDED", "2024-03-01T12:00:00Z",
                            "{\"nvidia.com/gpu.product\":\"" + A100 + "\",\"nvidia.com/gpu.count\":\"4\"}", ""),
                    node("odd-1", "1", "ADDED", "2024-03-01T00:00:00Z", "{\"nvidia.com/gpu.count\":\"four\"}", "")),
            batch(node("reg-1", "2", "MODIFIED", "2024-03-02T00:00:00Z", REG_LABELS,
                            gpu("GPU-cap-1") + "," + gpu("GPU-cap-2") + "," + gpu("GPU-cap-3")),
                    node("lab-1", "2", "MODIFIED", "2024-03-03T00:00:00Z",
                            "{\"nvidia.com/gpu.product\":\"" + A100 + "\",\"nvidia.com/gpu.count\":\"2\"}", "")),
            batch(node("reg-1", "3", "DELETED", "2024-03-04T00:00:00Z", REG_LABELS,
                    gpu("GPU-cap-1") + "," + gpu("GPU-cap-2") + "," + gpu("GPU-cap-3"))),
    };

    private static boolean loaded;

    @BeforeEach
    void load() {
        if (loaded) {
            return;
        }
        loaded = true;
        for (String b : BATCHES) {
            given().contentType(ContentType.JSON).body(b).post("/api/v1/facts").then().statusCode(200);
        }
    }

    private static Map<String, BigDecimal> capacity(String from, String to, String groupBy) {
        JsonPath json = given().queryParam("from", from).queryParam("to", to).queryParam("groupBy", groupBy)
                .queryParam("cluster", "cap-lab")
                .get("/api/v1/capacity").then().statusCode(200).extract().jsonPath();
        Map<String, BigDecimal> out = new LinkedHashMap<>();
        List<String> keys = json.getList("key");
        for (int i = 0; i < keys.size(); i++) {
            out.put(keys.get(i), new BigDecimal(json.getString("[" + i + "].cardHours")));
        }
        return out;
    }

    @Test
    void registeredCardsCountUntilTheirNodeIsDeletedAndLabelledNodesByTheirCount() {
        /*
         * [1 March, 5 March): reg-1: cap-1 and cap-2 72 h each (1 to 4 March), cap-3 48 h (2 to 4 March) = 192.
         * lab-1: 4 cards x 36 h (1 March 12:00 to 3 March) = 144, 2 cards x 48 h (3 to 5 March) = 96; 240.
         */
        Map<String, BigDecimal> byModel = capacity("2024-03-01T00:00:00Z", "2024-03-05T00:00:00Z", "model");
        assertEquals(List.of(A100, H100), List.copyOf(byModel.keySet()), byModel.toString());
        assertEquals(0, new BigDecimal("240").compareTo(byModel.get(A100)));
        assertEquals(0, new BigDecimal("192").compareTo(byModel.get(H100)));
        Map<String, BigDecimal> byNode = capacity("2024-03-01T00:00:00Z", "2024-03-05T00:00:00Z", "node");
        assertEquals(Map.of("lab-1", new BigDecimal("240"), "reg-1", new BigDecimal("192")), byNode);
        Map<String, BigDecimal> byCluster = capacity("2024-03-01T00:00:00Z", "2024-03-05T00:00:00Z", "cluster");
        assertEquals(Map.of("cap-lab", new BigDecimal("432")), byCluster);
    }

    @Test
    void dayBucketsSplitCardHoursAtTheZonesMidnights() {
        /*
         * UTC days of [1 March, 5 March): lab-1 4 cards x 12 h on the 1st = 48, 4 x 24 = 96 on the 2nd, 2 x 24 = 48 on
         * the 3rd and the 4th; reg-1 cap-1 and cap-2 on the 1st = 48, then cap-3 too: 72 on the 2nd and the 3rd,
         * nothing once deleted on the 4th.
         */
        assertEquals(Map.of("lab-1/2024-03-01", new BigDecimal("48"), "lab-1/2024-03-02", new BigDecimal("96"),
                        "lab-1/2024-03-03", new BigDecimal("48"), "lab-1/2024-03-04", new BigDecimal("48"),
                        "reg-1/2024-03-01", new BigDecimal("48"), "reg-1/2024-03-02", new BigDecimal("72"),
                        "reg-1/2024-03-03", new BigDecimal("72")),
                capacity("2024-03-01T00:00:00Z", "2024-03-05T00:00:00Z", "node,day"));
        /*
         * Berlin (UTC+1 in March) days of lab-1: the 1st ends 23:00Z, so 4 x 11 h = 44; the 2nd 96; the 3rd
         * [2 March 23:00Z, 3 March 23:00Z) = 4 x 1 + 2 x 23 = 50; the 4th 48; the 5th until the window's end at
         * 00:00Z, 2 x 1 = 2. Together 240, as unbucketed.
         */
        JsonPath json = given().queryParam("from", "2024-03-01T00:00:00Z").queryParam("to", "2024-03-05T00:00:00Z")
                .queryParam("groupBy", "node,day").queryParam("cluster", "cap-lab").queryParam("timeZone", "Europe/Berlin")
                .get("/api/v1/capacity").then().statusCode(200).extract().jsonPath();
        Map<String, BigDecimal> lab = new LinkedHashMap<>();
        List<String> keys = json.getList("key");
        for (int i = 0; i < keys.size(); i++) {
            if (keys.get(i).startsWith("lab-1/")) {
                lab.put(json.getString("[" + i + "].group.day"), new BigDecimal(json.getString("[" + i + "].cardHours")));
            }
        }
        assertEquals(Map.of("2024-03-01", new BigDecimal("44"), "2024-03-02", new BigDecimal("96"),
                "2024-03-03", new BigDecimal("50"), "2024-03-04", new BigDecimal("48"), "2024-03-05", new BigDecimal("2")), lab);
    }

    @Test
    void theWindowClipsEveryCard() {
        /*
         * [2 March 06:00, 3 March 06:00): reg-1 has 3 cards all 24 h = 72; lab-1 4 cards x 18 h = 72 plus
         * 2 cards x 6 h = 12, so 84. A quarter hour [1 March 11:45, 12:00) sees reg-1's two cards only: 0.5.
         */
        assertEquals(Map.of("lab-1", new BigDecimal("84"), "reg-1", new BigDecimal("72")),
                capacity("2024-03-02T06:00:00Z", "2024-03-03T06:00:00Z", "node"));
        assertEquals(Map.of("reg-1", new BigDecimal("0.5")),
                capacity("2024-03-01T11:45:00Z", "2024-03-01T12:00:00Z", "node"));
        // Long after the deletion only lab-1's two labelled cards remain: 2 x 24 h.
        assertEquals(Map.of("cap-lab/" + A100, new BigDecimal("48")),
                capacity("2024-04-01T00:00:00Z", "2024-04-02T00:00:00Z", "cluster,model"));
        String answer = given().queryParam("from", "2024-04-01T00:00:00Z").queryParam("to", "2024-04-02T00:00:00Z")
                .queryParam("groupBy", "cluster,model").queryParam("cluster", "cap-lab")
                .get("/api/v1/capacity").then().statusCode(200)
                .body("[0].group.cluster", equalTo("cap-lab"))
                .body("[0].group.model", equalTo(A100)).extract().asString();
        // billing's plan reads card-hours per model: this answer is the example it reads
        Contract.record("ledger", "capacity", answer);
    }

    @Test
    void oneModelSpelledTwoWaysIsOneGroupUnderTheSpellingThatSortsFirst() {
        // dcgm-exporter and nvidia-smi say "NVIDIA A100-SXM4-80GB"; GPU feature discovery labels "NVIDIA-A100-SXM4-80GB".
        String registered = "{\"uuid\":\"GPU-spell-1\",\"model\":\"NVIDIA A100-SXM4-80GB\",\"memoryMib\":81920,"
                + "\"cores\":100,\"splitCount\":1}";
        String body = "{\"cluster\":\"cap-spell\",\"nodes\":["
                + node("smi-1", "1", "ADDED", "2024-05-01T00:00:00Z", "{}", registered) + ","
                + node("gfd-1", "1", "ADDED", "2024-05-01T00:00:00Z",
                        "{\"nvidia.com/gpu.product\":\"" + A100 + "\",\"nvidia.com/gpu.count\":\"2\"}", "") + "]}";
        given().contentType(ContentType.JSON).body(body).post("/api/v1/facts").then().statusCode(200);
        // One card and two labelled cards, 24 h each.
        given().queryParam("from", "2024-05-01T00:00:00Z").queryParam("to", "2024-05-02T00:00:00Z")
                .queryParam("groupBy", "cluster,model").queryParam("cluster", "cap-spell")
                .get("/api/v1/capacity").then().statusCode(200)
                .body("size()", equalTo(1))
                .body("[0].key", equalTo("cap-spell/NVIDIA A100-SXM4-80GB"))
                .body("[0].group.model", equalTo("NVIDIA A100-SXM4-80GB"))
                .body("[0].cardHours", equalTo(72));
        given().queryParam("from", "2024-05-01T00:00:00Z").queryParam("to", "2024-05-02T00:00:00Z")
                .queryParam("groupBy", "node").queryParam("cluster", "cap-spell")
                .get("/api/v1/capacity").then().statusCode(200)
                .body("key", equalTo(List.of("gfd-1", "smi-1")));
    }

    @Test
    void beforeAnyNodeThereIsNoCapacity() {
        assertEquals(Map.of(), capacity("2024-01-01T00:00:00Z", "2024-02-01T00:00:00Z", "model"));
    }

    @ParameterizedTest(name = "{0}: from={1} to={2} groupBy={3}")
    @CsvSource(nullValues = "NULL", value = {
            "from,    NULL,                 2024-03-02T00:00:00Z, model",
            "from,    yesterday,            2024-03-02T00:00:00Z, model",
            "to,      2024-03-01T00:00:00Z, NULL,                 model",
            "to,      2024-03-02T00:00:00Z, 2024-03-01T00:00:00Z, model",
            "to,      2024-03-01T00:00:00Z, 2024-03-01T00:00:00Z, model",
            "to,      2023-01-01T00:00:00Z, 2024-03-01T00:00:00Z, model",
            "groupBy, 2024-03-01T00:00:00Z, 2024-03-02T00:00:00Z, tenant",
            "groupBy, 2024-03-01T00:00:00Z, 2024-03-02T00:00:00Z, 'model,model'",
    })
    void badInputIsAProblemNamingTheField(String field, String from, String to, String groupBy) {
        var request = given().queryParam("groupBy", groupBy);
        if (from != null) {
            request.queryParam("from", from);
        }
        if (to != null) {
            request.queryParam("to", to);
        }
        request.get("/api/v1/capacity").then().statusCode(400)
                .contentType("application/problem+json")
                .body("field", equalTo(field))
                .body("detail", containsString(field));
    }
}
