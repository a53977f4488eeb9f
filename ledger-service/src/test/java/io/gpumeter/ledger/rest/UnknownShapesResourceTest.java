package io.gpumeter.ledger.rest;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Pods whose card is not known yet — still Pending, or on a node the ledger has not seen — are booked by the
 * documented defaults (7 slices a MIG card, a vGPU's core share), and a pod whose resources no rule can read is
 * stored and reported as skipped while the rest of its batch is booked. Each case asks from 09:00 and is reconciled
 * over [09:00, 10:00), so its requested GPU-hours are its fraction, worked out by hand.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class UnknownShapesResourceTest {

    static String namespace() {
        return "{\"name\":\"ns\",\"resourceVersion\":\"1\",\"type\":\"ADDED\",\"observedAt\":\"2026-10-01T00:00:00Z\","
                + "\"labels\":{\"gpumeter.io/tenant\":\"t\"}}";
    }

    static String pendingPod(String uid, String resources) {
        return "{\"uid\":\"" + uid + "\",\"namespace\":\"ns\",\"name\":\"" + uid + "\",\"resourceVersion\":\"10\","
                + "\"type\":\"ADDED\",\"observedAt\":\"2026-10-01T09:30:00Z\",\"createdAt\":\"2026-10-01T09:00:00Z\","
                + "\"phase\":\"Pending\",\"gpuResources\":" + resources + "}";
    }

    static String runningPod(String uid, String node, String resources, String vgpus) {
        return "{\"uid\":\"" + uid + "\",\"namespace\":\"ns\",\"name\":\"" + uid + "\",\"resourceVersion\":\"11\","
                + "\"type\":\"MODIFIED\",\"observedAt\":\"2026-10-01T09:30:00Z\",\"createdAt\":\"2026-10-01T09:00:00Z\","
                + "\"scheduledAt\":\"2026-10-01T09:00:00Z\",\"nodeName\":\"" + node + "\",\"phase\":\"Running\","
                + "\"gpuResources\":" + resources + ",\"vgpus\":" + vgpus
                + ("[]".equals(vgpus) ? "" : ",\"hamiBindPhase\":\"success\",\"hamiNode\":\"" + node + "\"") + "}";
    }

    static String batch(String cluster, String pods) {
        return "{\"cluster\":\"" + cluster + "\",\"namespaces\":[" + namespace() + "],\"pods\":[" + pods + "]}";
    }

    static BigDecimal requested(String cluster) {
        JsonPath json = given().queryParam("from", "2026-10-01T09:00:00Z").queryParam("to", "2026-10-01T10:00:00Z")
                .queryParam("groupBy", "cluster").get("/api/v1/reconciliation").then().statusCode(200).extract().jsonPath();
        String value = json.getString("find { it.key == '" + cluster + "' }.requestedGpuHours");
        return value == null ? BigDecimal.ZERO : new BigDecimal(value);
    }

    static BigDecimal allocated(String cluster) {
        JsonPath json = given().queryParam("from", "2026-10-01T09:00:00Z").queryParam("to", "2026-10-01T10:00:00Z")
                .queryParam("groupBy", "cluster").get("/api/v1/gpu-hours").then().statusCode(200).extract().jsonPath();
        String value = json.getString("find { it.key == '" + cluster + "' }.allocatedGpuHours");
        return value == null ? BigDecimal.ZERO : new BigDecimal(value);
    }

    static void assertHours(String expected, BigDecimal actual) {
        assertEquals(new BigDecimal(expected).setScale(6, RoundingMode.HALF_EVEN), actual.setScale(6, RoundingMode.HALF_EVEN));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            // 1 of the default 7 slices
            "pending-mig   | {\"nvidia.com/mig-1g.10gb\":1}                                                  | 0.142857142857",
            "pending-whole | {\"nvidia.com/gpu\":2}                                                          | 2",
            // HAMi has not placed it: the card's memory is unknown, so the core share decides
            "pending-hami  | {\"nvidia.com/gpu\":1,\"nvidia.com/gpucores\":30,\"nvidia.com/gpumem\":4000}  | 0.3",
    })
    void aPendingPodIsStoredAndItsRequestReconciled(String cluster, String resources, String fraction) {
        given().contentType(ContentType.JSON).body(batch(cluster, pendingPod(cluster + "-p", resources)))
                .post("/api/v1/facts").then().statusCode(200).body("accepted", equalTo(2)).body("skipped", empty());
        assertHours(fraction, requested(cluster));
        assertHours("0", allocated(cluster));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "unseen-whole      | {\"nvidia.com/gpu\":1}           | []  | 1",
            "unseen-mig        | {\"nvidia.com/mig-3g.40gb\":1}   | []  | 0.428571428571",
            // a grammatical profile no card offers: still its compute slices over the default 7
            "unseen-mig-odd    | {\"nvidia.com/mig-2g.35gb\":1}   | []  | 0.285714285714",
            // HAMi's grant waits for the node's registration; meanwhile the request is booked, its core share deciding
            "unseen-hami       | {\"nvidia.com/gpu\":1,\"nvidia.com/gpumem\":8000,\"nvidia.com/gpucores\":50} | [{\"container\":0,\"uuid\":\"GPU-H1\",\"type\":\"NVIDIA\",\"memoryMib\":8000,\"cores\":50}] | 0.5",
    })
    void aPodOnANodeNotSeenYetIsBookedByTheDefaults(String cluster, String resources, String vgpus, String fraction) {
        given().contentType(ContentType.JSON).body(batch(cluster, runningPod(cluster + "-p", "ghost-" + cluster, resources, vgpus)))
                .post("/api/v1/facts").then().statusCode(200).body("skipped", empty());
        assertHours(fraction, requested(cluster));
        assertHours(fraction, allocated(cluster));
    }

    @Test
    void aMigUnitOnAnUnknownCardSaysItUsedTheDefaultUntilItsNodeArrives() {
        String cluster = "a30-arrives-late";
        given().contentType(ContentType.JSON)
                .body(batch(cluster, runningPod("m", "a30-1", "{\"nvidia.com/mig-1g.6gb\":1}", "[]")))
                .post("/api/v1/facts").then().statusCode(200);
        given().queryParam("namespace", "ns").queryParam("pod", "m").queryParam("cluster", cluster)
                .queryParam("at", "2026-10-01T09:30:00Z").get("/api/v1/occupants").then().statusCode(200)
                .body("[0].unit.source", equalTo("mig-resource+default-slices"));
        assertHours("0.142857142857", allocated(cluster));

        String node = "{\"name\":\"a30-1\",\"resourceVersion\":\"5\",\"type\":\"ADDED\",\"observedAt\":\"2026-10-01T08:00:00Z\","
                + "\"labels\":{\"nvidia.com/gpu.product\":\"NVIDIA-A30\",\"nvidia.com/mig.strategy\":\"mixed\"}}";
        given().contentType(ContentType.JSON).body("{\"cluster\":\"" + cluster + "\",\"nodes\":[" + node + "]}")
                .post("/api/v1/facts").then().statusCode(200);
        given().queryParam("namespace", "ns").queryParam("pod", "m").queryParam("cluster", cluster)
                .queryParam("at", "2026-10-01T09:30:00Z").get("/api/v1/occupants").then().statusCode(200)
                .body("[0].unit.source", equalTo("mig-resource"));
        // the A30 has 4 slices (configured), so the same unit is now a quarter card
        assertHours("0.25", allocated(cluster));
        assertHours("0.25", requested(cluster));
    }

    @Test
    void aPodNoRuleCanReadIsStoredAndSkippedWhileTheRestIsBooked() {
        String cluster = "malformed";
        String body = batch(cluster, pendingPod("bad", "{\"nvidia.com/mig-9g.999gb\":1}") + ","
                + pendingPod("good", "{\"nvidia.com/gpu\":1}"));
        given().contentType(ContentType.JSON).body(body).post("/api/v1/facts").then().statusCode(200)
                .body("accepted", equalTo(3))
                .body("skipped", hasSize(1))
                .body("skipped[0].book", equalTo("allocation"))
                .body("skipped[0].key", containsString("ns/bad"))
                .body("skipped[0].reason", containsString("invalid MIG profile"));
        assertHours("1", requested(cluster));
        // sent again: stored once, still skipped, still no failure
        given().contentType(ContentType.JSON).body(body).post("/api/v1/facts").then().statusCode(200)
                .body("accepted", equalTo(0)).body("duplicates", equalTo(3));
        assertHours("1", requested(cluster));
    }

    @Test
    void aBundleStoresBothHalvesInOneTransactionOrNeither() {
        String cluster = "bundle";
        String facts = batch(cluster, pendingPod("b1", "{\"nvidia.com/mig-1g.10gb\":1}"));
        String governance = "{\"cluster\":\"" + cluster + "\",\"podStatuses\":[{\"uid\":\"b1\",\"namespace\":\"ns\",\"name\":\"b1\","
                + "\"resourceVersion\":\"10\",\"type\":\"ADDED\",\"observedAt\":\"2026-10-01T09:30:00Z\","
                + "\"createdAt\":\"2026-10-01T09:00:00Z\",\"phase\":\"Pending\"}]}";
        // a governance half the ledger refuses refuses the whole bundle: the metering half is not stored either
        String badGovernance = governance.replace("\"resourceVersion\":\"10\",", "");
        given().contentType(ContentType.JSON).body("{\"facts\":" + facts + ",\"governance\":" + badGovernance + "}")
                .post("/api/v1/facts/bundles").then().statusCode(400).contentType("application/problem+json");
        assertHours("0", requested(cluster));

        given().contentType(ContentType.JSON).body("{\"facts\":" + facts + ",\"governance\":" + governance + "}")
                .post("/api/v1/facts/bundles").then().statusCode(200)
                .body("facts.accepted", equalTo(2)).body("governance.accepted", equalTo(1));
        assertHours("0.142857142857", requested(cluster));
        given().contentType(ContentType.JSON).body("{\"facts\":" + facts + ",\"governance\":" + governance + "}")
                .post("/api/v1/facts/bundles").then().statusCode(200)
                .body("facts.duplicates", equalTo(2)).body("governance.duplicates", equalTo(1));
    }

    @Test
    void aBundleCarriesItsPodsViewsAsTheirOwnFieldsOneForEachPodVersion() {
        String cluster = "carrying";
        String facts = batch(cluster, pendingPod("c1", "{\"nvidia.com/mig-1g.10gb\":1}"));
        String view = "{\"reason\":\"Unschedulable\",\"queueName\":\"team-a\",\"containers\":[]}";
        for (String bad : List.of("{\"facts\":" + facts + ",\"carriedStatuses\":[" + view + "," + view + "]}",
                "{\"carriedStatuses\":[" + view + "]}",
                "{\"facts\":" + batch(cluster, "") + ",\"carriedStatuses\":[" + view + "]}")) {
            given().contentType(ContentType.JSON).body(bad).post("/api/v1/facts/bundles").then().statusCode(400)
                    .contentType("application/problem+json").body("field", equalTo("carriedStatuses"))
                    .body("detail", containsString("one for each pod version"));
        }
        for (String malformed : List.of("[null]", "{}", "\"x\"", "[" + view + ",null]")) {
            given().contentType(ContentType.JSON).body("{\"facts\":" + facts + ",\"carriedStatuses\":" + malformed + "}")
                    .post("/api/v1/facts/bundles").then().statusCode(400).contentType("application/problem+json");
        }
        given().contentType(ContentType.JSON)
                .body("{\"facts\":" + facts + ",\"carriedStatuses\":[" + view.replace("[]", "[{\"name\":\"main\","
                        + "\"state\":{\"state\":\"waiting\",\"startedAt\":\"yesterday\"}}]") + "]}")
                .post("/api/v1/facts/bundles").then().statusCode(400).contentType("application/problem+json")
                .body("field", containsString("carriedStatuses"));
        assertHours("0", requested(cluster));

        String bundle = "{\"facts\":" + facts + ",\"carriedStatuses\":[" + view + "]}";
        given().contentType(ContentType.JSON).body(bundle).post("/api/v1/facts/bundles").then().statusCode(200)
                .body("facts.accepted", equalTo(2)).body("governance.accepted", equalTo(1));
        assertHours("0.142857142857", requested(cluster));
        given().contentType(ContentType.JSON).body(bundle).post("/api/v1/facts/bundles").then().statusCode(200)
                .body("facts.duplicates", equalTo(2)).body("governance.duplicates", equalTo(1));
    }
}
