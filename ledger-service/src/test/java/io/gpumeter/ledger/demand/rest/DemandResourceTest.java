package io.gpumeter.ledger.demand.rest;

import io.gpumeter.common.testing.Contract;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.path.json.config.JsonPathConfig;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static io.gpumeter.ledger.demand.rest.DemandFixture.CLUSTER;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The demand read over {@link DemandFixture}'s history, window [2 June, 6 June 2025), every figure by hand:
 * <pre>
 * A100 (canonical "NVIDIA A100 SXM4 80GB"; dm-a1 says NVIDIA-A100-SXM4-80GB, dm-a2 and the DRA slice
 *       NVIDIA A100-SXM4-80GB). 4 June: nothing held anywhere.
 *   batch     owner batch/Job                etl: 1 card 5 Jun 06:00-08:00                    = 2 h on the 5th
 *   inference owner apps/Deployment, MIG     embed: 3g.40gb (3/7) 3 Jun 00:00-14:00            = 6 h on the 3rd
 *   inference owner apps/Deployment, whole   llm-chat's two ReplicaSets: chat-a 2 Jun 00:00-12:00 (12 h),
 *                                            chat-b 2 Jun 12:00-3 Jun 06:00 (12 h + 6 h)      = 24 h, 6 h; 2 pods
 *   notebook  label component=singleuser-server  JupyterHub's nb: 3 Jun 08:00-10:00         = 2 h on the 3rd
 *   training  owner jobset.x-k8s.io/JobSet   ft: a card through a ResourceClaim of class gpu.nvidia.com,
 *                                            2 Jun 06:00-08:00                                = 2 h on the 2nd
 *   training  owner batch.volcano.sh/Job     mpi: 2 cards 5 Jun 00:00-03:00                   = 6 h on the 5th
 *   together 48 h: gpu-hours' NVIDIA-A100-SXM4-80GB 40 h + NVIDIA A100-SXM4-80GB 8 h.
 * H100 ("NVIDIA H100 80GB HBM3")
 *   training  owner kubeflow.org/PyTorchJob  bert: HAMi 50 % cores, 20 GiB of 80 (share 0.5), 2 Jun 10:00-14:00 = 2 h
 * Queue waits (admitted that day; a day's p95 by nearest rank, of 2 waits the 2nd):
 *   A100 2 Jun: Workload w1 1800 s (refused once, then admitted on flavor a100-dmd), w2 300 s -> p95 1800
 *        5 Jun: pod etl 7200 s (04:00-06:00, no queue), PodGroup mpi 3600 s (its pod's own 1800 s wait is the
 *               gang's, not counted again) -> p95 7200. Peak 7200 on the 5th; median of [1800, 7200] rank 1 = 1800.
 *   H100 5 Jun: Workload w3 600 s on flavor h100-dmd.
 * Pending GPUs (hourly means; 4 days, so an hour of day's mean is its 4 hours' sum / 4):
 *   A100 wait-k 2 GPUs 3 Jun 11:00-12:30 (its LocalQueue's only flavor is A100): 11h 2, 12h 1;
 *        etl 1 GPU 5 Jun 04:00-06:00 (the card it got): 04h 1, 05h 1; mpi 2 GPUs 4 Jun 23:30-24:00: 23h 1.
 *        Peak 2 at 3 Jun 11:00; hour 11 averages 0.5, the highest. 3 pods.
 *   H100 wait-h 4 GPUs 3 Jun 10:00-13:00 (node selector on the H100 product): peak 4 at 10:00, hour 10 averages 1.
 *   none wait-x 1 GPU 3 Jun 10:30-11:30 (affinity to either model): 0.5 at 10:00 and 11:00; hour 10 averages 0.125.
 * </pre>
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class DemandResourceTest {

    static final String FROM = "2025-06-02T00:00:00Z";
    static final String TO = "2025-06-06T00:00:00Z";
    static final String A100 = "NVIDIA A100 SXM4 80GB";
    static final String H100 = "NVIDIA H100 80GB HBM3";
    static final JsonPathConfig BIG = new JsonPathConfig(JsonPathConfig.NumberReturnType.BIG_DECIMAL);

    private static boolean loaded;

    @BeforeEach
    void load() {
        if (!loaded) {
            DemandFixture.post();
            loaded = true;
        }
    }

    static JsonPath demand(String zone) {
        var request = given().queryParam("from", FROM).queryParam("to", TO).queryParam("cluster", CLUSTER);
        if (zone != null) {
            request.queryParam("timeZone", zone);
        }
        String answer = request.get("/api/v1/demand").then().statusCode(200).extract().asString();
        if (zone == null) {
            Contract.record("ledger", "demand", answer); // slo-service's capacity plan reads it
        }
        return new JsonPath(answer).using(BIG);
    }

    static void assertHours(String expected, Object actual) {
        BigDecimal a = new BigDecimal(String.valueOf(actual));
        assertTrue(new BigDecimal(expected).subtract(a).abs().compareTo(new BigDecimal("1e-9")) < 0,
                "expected " + expected + ", got " + a);
    }

    /** Each shape as "model | class | rule | shape | kind | service | pods". */
    static List<String> rows(JsonPath json) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < json.getList("shapes").size(); i++) {
            String s = "shapes[" + i + "].";
            out.add(json.getString(s + "model") + " | " + json.getString(s + "workloadClass") + " | "
                    + json.getString(s + "classRule") + " | " + json.getString(s + "shape") + " | " + json.getString(s + "kind")
                    + " | " + (json.get(s + "service") == null ? "-" : json.getString(s + "service.namespace") + "/"
                    + json.getString(s + "service.name")) + " | " + json.getInt(s + "pods"));
        }
        return out;
    }

    static void assertDays(JsonPath json, int shape, String... hours) {
        List<Object> days = json.getList("shapes[" + shape + "].days.gpuHours");
        assertEquals(hours.length, days.size());
        BigDecimal total = BigDecimal.ZERO;
        for (int d = 0; d < hours.length; d++) {
            assertHours(hours[d], days.get(d));
            total = total.add(new BigDecimal(hours[d]));
        }
        assertHours(total.toPlainString(), json.get("shapes[" + shape + "].gpuHours"));
    }

    @Test
    void shapesGroupTheHoursByModelClassShapeAndService() {
        JsonPath json = demand(null);
        assertEquals(FROM, json.getString("from"));
        assertEquals(TO, json.getString("to"));
        assertEquals("UTC", json.getString("timeZone"));
        assertEquals(CLUSTER, json.getString("cluster"));
        assertEquals(List.of(
                A100 + " | batch | owner batch/Job | whole | WHOLE | - | 1",
                A100 + " | inference | owner apps/Deployment | mig-3g.40gb | MIG | acme-prod/embed | 1",
                A100 + " | inference | owner apps/Deployment | whole | WHOLE | acme-prod/llm-chat | 2",
                A100 + " | notebook | label component=singleuser-server | whole | WHOLE | - | 1",
                A100 + " | training | owner jobset.x-k8s.io/JobSet | dra:gpu.nvidia.com | DRA | - | 1",
                A100 + " | training | owner batch.volcano.sh/Job | whole | WHOLE | - | 1",
                H100 + " | training | owner kubeflow.org/PyTorchJob | hami | HAMI | - | 1"), rows(json));
        assertEquals(List.of("2025-06-02", "2025-06-03", "2025-06-04", "2025-06-05"), json.getList("shapes[0].days.day"));
        assertDays(json, 0, "0", "0", "0", "2");
        assertDays(json, 1, "0", "6", "0", "0");
        assertDays(json, 2, "24", "6", "0", "0");
        assertDays(json, 3, "0", "2", "0", "0");
        assertDays(json, 4, "2", "0", "0", "0");
        assertDays(json, 5, "0", "0", "0", "6");
        assertDays(json, 6, "2", "0", "0", "0");
    }

    @Test
    void aModelsShapesAddUpToItsGpuHoursWhateverTheSpelling() {
        JsonPath hours = given().queryParam("from", FROM).queryParam("to", TO).queryParam("groupBy", "cluster,model")
                .get("/api/v1/gpu-hours").then().statusCode(200).extract().jsonPath().using(BIG);
        Map<String, BigDecimal> byRaw = new TreeMap<>();
        for (int i = 0; i < hours.getList("key").size(); i++) {
            if (CLUSTER.equals(hours.getString("[" + i + "].group.cluster"))) {
                byRaw.put(hours.getString("[" + i + "].group.model"),
                        new BigDecimal(hours.getString("[" + i + "].allocatedGpuHours")));
            }
        }
        assertEquals(List.of(DemandFixture.A100_SMI, DemandFixture.A100_GFD, DemandFixture.H100), List.copyOf(byRaw.keySet()));
        assertHours("8", byRaw.get(DemandFixture.A100_SMI));
        assertHours("40", byRaw.get(DemandFixture.A100_GFD));
        JsonPath json = demand(null);
        Map<String, BigDecimal> byModel = new TreeMap<>();
        for (int i = 0; i < json.getList("shapes").size(); i++) {
            byModel.merge(json.getString("shapes[" + i + "].model"),
                    new BigDecimal(json.getString("shapes[" + i + "].gpuHours")), BigDecimal::add);
        }
        assertHours(byRaw.get(DemandFixture.A100_SMI).add(byRaw.get(DemandFixture.A100_GFD)).toPlainString(), byModel.get(A100));
        assertHours("48", byModel.get(A100));
        assertHours(byRaw.get(DemandFixture.H100).toPlainString(), byModel.get(H100));
    }

    @Test
    void peaksTieQueueWaitsAndPendingPodsToTheirModel() {
        JsonPath json = demand(null);
        assertEquals(java.util.Arrays.asList(A100, H100, null), json.getList("peaks.model"));
        assertEquals(List.of(DemandFixture.A100_SMI, DemandFixture.A100_GFD), json.getList("peaks[0].spellings"));
        assertEquals(List.of(DemandFixture.H100), json.getList("peaks[1].spellings"));
        assertEquals(List.of(), json.getList("peaks[2].spellings"));

        String a = "peaks[0].queueWaitP95Seconds.";
        assertHours("7200", json.get(a + "peak"));
        assertEquals("2025-06-05", json.getString(a + "peakDay"));
        assertHours("1800", json.get(a + "median"));
        assertEquals(2, json.getInt(a + "days"));
        assertEquals(4, json.getInt(a + "waits"));
        String ap = "peaks[0].pending.";
        assertHours("2", json.get(ap + "peakGpus"));
        assertEquals("2025-06-03T11:00:00Z", json.getString(ap + "peakHour"));
        assertEquals(11, json.getInt(ap + "busiestHourOfDay"));
        assertHours("0.5", json.get(ap + "meanGpusAtBusiestHour"));
        assertEquals(3, json.getInt(ap + "pods"));

        String h = "peaks[1].queueWaitP95Seconds.";
        assertHours("600", json.get(h + "peak"));
        assertEquals("2025-06-05", json.getString(h + "peakDay"));
        assertHours("600", json.get(h + "median"));
        assertEquals(1, json.getInt(h + "waits"));
        String hp = "peaks[1].pending.";
        assertHours("4", json.get(hp + "peakGpus"));
        assertEquals("2025-06-03T10:00:00Z", json.getString(hp + "peakHour"));
        assertEquals(10, json.getInt(hp + "busiestHourOfDay"));
        assertHours("1", json.get(hp + "meanGpusAtBusiestHour"));
        assertEquals(1, json.getInt(hp + "pods"));

        assertNull(json.get("peaks[2].queueWaitP95Seconds"));
        String np = "peaks[2].pending.";
        assertHours("0.5", json.get(np + "peakGpus"));
        assertEquals("2025-06-03T10:00:00Z", json.getString(np + "peakHour"));
        assertEquals(10, json.getInt(np + "busiestHourOfDay"));
        assertHours("0.125", json.get(np + "meanGpusAtBusiestHour"));
    }

    @Test
    void aRequestOverBeforeTheWindowIsNotPendingInIt() {
        // dmd-wait-h asked for 4 H100s from 10:00 on 3 June and was deleted unplaced at 13:00: a window from 12:00
        // sees its last hour, one from 13:00 none of it.
        JsonPath lastHour = new JsonPath(given().queryParam("from", "2025-06-03T12:00:00Z").queryParam("to", TO)
                .queryParam("cluster", CLUSTER).get("/api/v1/demand").then().statusCode(200).extract().asString()).using(BIG);
        String h = "peaks.find { it.model == '" + H100 + "' }.pending.";
        assertEquals(1, lastHour.getInt(h + "pods"));
        assertHours("4", lastHour.get(h + "peakGpus"));
        assertEquals("2025-06-03T12:00:00Z", lastHour.getString(h + "peakHour"));

        JsonPath after = new JsonPath(given().queryParam("from", "2025-06-03T13:00:00Z").queryParam("to", TO)
                .queryParam("cluster", CLUSTER).get("/api/v1/demand").then().statusCode(200).extract().asString()).using(BIG);
        assertEquals(0, after.getInt(h + "pods"));
    }

    @Test
    void daysAndHoursOfDayAreTheZones() {
        /*
         * Berlin is UTC+2 in June: the window is 2 June 02:00 to 6 June 02:00 local, five local days. chat-a is held
         * 02:00-14:00 on the 2nd (12 h), chat-b 14:00 on the 2nd to 08:00 on the 3rd (10 h, 8 h). Every local hour
         * of day falls 4 times in the window; A100's busiest is 13:00 (11:00Z), H100's 12:00 (10:00Z).
         */
        JsonPath json = demand("Europe/Berlin");
        assertEquals("Europe/Berlin", json.getString("timeZone"));
        assertEquals(List.of("2025-06-02", "2025-06-03", "2025-06-04", "2025-06-05", "2025-06-06"),
                json.getList("shapes[2].days.day"));
        assertEquals("acme-prod/llm-chat", json.getString("shapes[2].service.namespace") + "/" + json.getString("shapes[2].service.name"));
        assertDays(json, 2, "22", "8", "0", "0", "0");
        assertEquals(13, json.getInt("peaks[0].pending.busiestHourOfDay"));
        assertHours("0.5", json.get("peaks[0].pending.meanGpusAtBusiestHour"));
        assertEquals("2025-06-03T11:00:00Z", json.getString("peaks[0].pending.peakHour"));
        assertEquals(12, json.getInt("peaks[1].pending.busiestHourOfDay"));
        assertEquals("2025-06-05", json.getString("peaks[0].queueWaitP95Seconds.peakDay"));
    }

    @Test
    void anotherClusterHasNoDemand() {
        given().queryParam("from", FROM).queryParam("to", TO).queryParam("cluster", "dmd-elsewhere")
                .get("/api/v1/demand").then().statusCode(200)
                .body("cluster", equalTo("dmd-elsewhere")).body("shapes.size()", equalTo(0)).body("peaks.size()", equalTo(0));
    }

    @Test
    void aWorkloadRefusedThenAdmittedWaitedAndOnlyOneNeverAdmittedIsRejected() {
        // cq-dmd-a100: w1 refused then admitted, w2 admitted at once, w4 refused and still waiting; cq-dmd-h100: w3.
        given().queryParam("from", "2025-06-01T00:00:00Z").queryParam("to", "2025-06-07T00:00:00Z").queryParam("cluster", CLUSTER)
                .get("/api/v1/cluster-queues").then().statusCode(200)
                .body("name", equalTo(List.of("cq-dmd-a100", "cq-dmd-h100")))
                .body("[0].workloads", equalTo(3)).body("[0].rejected", equalTo(1)).body("[0].rejectionRate", equalTo(0.333333f))
                .body("[0].admitted", equalTo(2)).body("[0].refusedThenAdmitted", equalTo(1)).body("[0].pendingNow", equalTo(1))
                .body("[1].workloads", equalTo(1)).body("[1].rejected", equalTo(0)).body("[1].rejectionRate", equalTo(0))
                .body("[1].refusedThenAdmitted", equalTo(0));
    }

    @ParameterizedTest(name = "{0}: from={1} to={2} timeZone={3} cluster={4}")
    @CsvSource(nullValues = "NULL", value = {
            "from,     NULL,                 2025-06-02T00:00:00Z, NULL,          NULL,          from is required",
            "from,     yesterday,            2025-06-02T00:00:00Z, NULL,          NULL,          RFC 3339",
            "to,       2025-06-01T00:00:00Z, NULL,                 NULL,          NULL,          to is required",
            "to,       2025-06-02T00:00:00Z, 2025-06-01T00:00:00Z, NULL,          NULL,          to must be after from",
            "to,       2025-06-01T00:00:00Z, 2025-06-01T00:00:00Z, NULL,          NULL,          to must be after from",
            "to,       2024-01-01T00:00:00Z, 2025-06-01T00:00:00Z, NULL,          NULL,          at most 400 days",
            "timeZone, 2025-06-01T00:00:00Z, 2025-06-02T00:00:00Z, Mars/Olympus,  NULL,          Mars/Olympus",
            "cluster,  2025-06-01T00:00:00Z, 2025-06-02T00:00:00Z, NULL,          Not_A_Cluster, DNS label",
    })
    void badInputIsAProblemNamingTheField(String field, String from, String to, String zone, String cluster, String says) {
        var request = given();
        if (from != null) {
            request.queryParam("from", from);
        }
        if (to != null) {
            request.queryParam("to", to);
        }
        if (zone != null) {
            request.queryParam("timeZone", zone);
        }
        if (cluster != null) {
            request.queryParam("cluster", cluster);
        }
        request.get("/api/v1/demand").then().statusCode(400)
                .contentType("application/problem+json")
                .body("field", equalTo(field))
                .body("detail", containsString(says));
    }
}
