package io.gpumeter.ledger.governance.rest;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;

/**
 * Failures from the dcgm-exporter Xid gauge, the node's GPU registration and MIG labels, and kernel OOM events of a
 * node, for cluster "fsrc" on 2024-04-01 (all times that day, UTC). Worked out by hand:
 * <pre>
 * pods       ml/trainer-1 holds half of GPU-5a (HAMi 50 cores, 40960 of 81920 MiB) 00:00-10:00 = 5 GPU-hours;
 *            other/trainer-1 the same share 12:00-22:00 = 5 GPU-hours. 10 GPU-hours, 2 pod starts.
 * Xid gauge  GPU-5a reads 0, 0, then 31 from 01:01:00 (scraped 3 times), 31 at 02:00:00, 0 at 02:00:30,
 *            48 from 02:01:00, 0 at 02:31:00: xid-31 at 01:01:00 recovered at once; xid-48 02:01:00 -> 02:31:00, 1800 s.
 * node gpu-5 GPU-5b registered at 00:00, gone at 04:00, back at 06:00: gpu-lost 7200 s.
 *            mig.config all-disabled -> all-1g.10gb at 06:00 (pending), success at 06:15: 900 s.
 * OOM        trainer-1 (ml) OOM-killed at 03:00:00, running again 03:00:40: 40 s. The node's OOMKilling event at
 *            03:00:02 is that kill; the one at 08:00:00 matches no container: a node-level OOM, ended, not in MTTR.
 * by cause   gpu-lost 1, mig-reconfiguration 1, oom 2 (MTTR over the one recovered: 40 s), xid-31 1 (0 s),
 *            xid-48 1 (1800 s). Rate per 1,000 GPU-hours: 1 -> 100, 2 -> 200; per pod start: 1 -> 0.5, 2 -> 1.
 * by root    data-plane: gpu-lost, xid-48 -> MTTR [1800, 7200], nearest-rank p50 1800, mean 4500;
 *            operations-configuration: mig 900; workload: oom x2, xid-31 -> MTTR [0, 40], p50 0, mean 20.
 * by tenant  ml: xid-31, xid-48 (on GPU-5a, held by ml), mig and the node OOM (ml on gpu-5 then), the pod OOM = 5;
 *            GPU-5b was held by nobody: unallocated 1. ml MTTR [0, 40, 900, 1800]: p50 40, mean 685;
 *            ml's rate 5 x 1000 / 5 GPU-hours = 1000.
 * </pre>
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class FailureSourcesResourceTest {

    static String node(String rv, String at, String config, String state, String... uuids) {
        String gpus = Stream.of(uuids).map(u -> "{\"uuid\":\"" + u + "\",\"model\":\"NVIDIA-A100-SXM4-80GB\",\"memoryMib\":81920,"
                + "\"cores\":100,\"splitCount\":10}").collect(Collectors.joining(","));
        return """
                {"name":"gpu-5","uid":"n5","resourceVersion":"%s","type":"MODIFIED","observedAt":"%s",
                 "labels":{"nvidia.com/mig.config":"%s","nvidia.com/mig.config.state":"%s"},"gpus":[%s]}
                """.formatted(rv, at, config, state, gpus);
    }

    static String pod(String uid, String ns, String rv, String observed, String scheduled, String finished) {
        return """
                {"uid":"%s","namespace":"%s","name":"trainer-1","resourceVersion":"%s","type":"MODIFIED","observedAt":"%s",
                 "scheduledAt":"%s","nodeName":"gpu-5","phase":"%s","allTerminated":%s,"lastFinishedAt":%s,
                 "gpuResources":{"nvidia.com/gpu":1,"nvidia.com/gpumem":40960,"nvidia.com/gpucores":50},
                 "vgpus":[{"container":0,"uuid":"GPU-5a","type":"NVIDIA","memoryMib":40960,"cores":50}],
                 "hamiBindPhase":"success","hamiNode":"gpu-5"}
                """.formatted(uid, ns, rv, observed, scheduled, finished == null ? "Running" : "Succeeded", finished != null,
                finished == null ? "null" : "\"" + finished + "\"");
    }

    static final String FACTS = "{\"cluster\":\"fsrc\",\"nodes\":["
            + node("10", "2024-04-01T00:00:00Z", "all-disabled", "success", "GPU-5a", "GPU-5b") + ","
            + node("20", "2024-04-01T04:00:00Z", "all-disabled", "success", "GPU-5a") + ","
            + node("30", "2024-04-01T06:00:00Z", "all-1g.10gb", "pending", "GPU-5a", "GPU-5b") + ","
            + node("31", "2024-04-01T06:15:00Z", "all-1g.10gb", "success", "GPU-5a", "GPU-5b") + "],\"pods\":["
            + pod("t1", "ml", "100", "2024-04-01T00:00:01Z", "2024-04-01T00:00:00Z", null) + ","
            + pod("t1", "ml", "200", "2024-04-01T10:00:01Z", "2024-04-01T00:00:00Z", "2024-04-01T10:00:00Z") + ","
            + pod("o1", "other", "300", "2024-04-01T12:00:01Z", "2024-04-01T12:00:00Z", null) + ","
            + pod("o1", "other", "400", "2024-04-01T22:00:01Z", "2024-04-01T12:00:00Z", "2024-04-01T22:00:00Z") + "]}";

    static String xid(int code, String at) {
        return "{\"gpuUuid\":\"GPU-5a\",\"node\":\"gpu-5\",\"scope\":\"DEVICE\",\"scopeKey\":\"\",\"field\":\"XID\",\"value\":" + code
                + ",\"at\":\"" + at + "\"}";
    }

    static String usage(String... samples) {
        return "{\"cluster\":\"fsrc\",\"samples\":[" + String.join(",", samples) + "]}";
    }

    static final String SCRAPES_1 = usage(xid(0, "2024-04-01T01:00:00Z"), xid(0, "2024-04-01T01:00:30Z"),
            xid(31, "2024-04-01T01:01:00Z"), xid(31, "2024-04-01T01:01:30Z"), xid(31, "2024-04-01T01:02:00Z"));
    static final String SCRAPES_2 = usage(xid(31, "2024-04-01T02:00:00Z"), xid(0, "2024-04-01T02:00:30Z"),
            xid(48, "2024-04-01T02:01:00Z"), xid(48, "2024-04-01T02:01:30Z"));
    static final String SCRAPES_3 = usage(xid(48, "2024-04-01T02:30:30Z"), xid(0, "2024-04-01T02:31:00Z"));

    static String podStatus(String rv, String state, String lastState) {
        return """
                {"uid":"t1","namespace":"ml","name":"trainer-1","resourceVersion":"%s","type":"MODIFIED","observedAt":"2024-04-01T03:00:41Z",
                 "createdAt":"2024-04-01T00:00:00Z","scheduledAt":"2024-04-01T00:00:00Z","nodeName":"gpu-5","schedulerName":"default-scheduler",
                 "phase":"Running","gpuResources":{"nvidia.com/gpu":1,"nvidia.com/gpumem":40960,"nvidia.com/gpucores":50},
                 "containers":[{"name":"main","init":false,"restartCount":1,"state":%s,"lastState":%s}]}
                """.formatted(rv, state, lastState);
    }

    static String nodeOom(String uid, String at, String message) {
        return """
                {"uid":"%s","namespace":"default","name":"gpu-5.%s","resourceVersion":"1","observedAt":"%s",
                 "involvedKind":"Node","involvedName":"gpu-5","reason":"OOMKilling","eventType":"Warning",
                 "message":"%s","reportingComponent":"kernel-monitor","host":"gpu-5","firstAt":"%s","lastAt":"%s","count":1}
                """.formatted(uid, uid, at, message, at, at);
    }

    static final String GOVERNANCE = "{\"cluster\":\"fsrc\",\"podStatuses\":["
            + podStatus("110", "{\"state\":\"running\",\"startedAt\":\"2024-04-01T00:00:30Z\"}", "null") + ","
            + podStatus("150", "{\"state\":\"running\",\"startedAt\":\"2024-04-01T03:00:40Z\"}",
            "{\"state\":\"terminated\",\"reason\":\"OOMKilled\",\"exitCode\":137,\"startedAt\":\"2024-04-01T00:00:30Z\","
                    + "\"finishedAt\":\"2024-04-01T03:00:00Z\"}") + "],\"events\":["
            + nodeOom("oom-1", "2024-04-01T03:00:02Z", "Memory cgroup out of memory: Killed process 4242 (python) total-vm:1kB, "
            + "anon-rss:1kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:4kB oom_score_adj:-997") + ","
            + nodeOom("oom-2", "2024-04-01T08:00:00Z", "Killed process 77 (java)") + "]}";

    private static boolean loaded;

    @BeforeEach
    void load() {
        if (loaded) {
            return;
        }
        loaded = true;
        given().contentType(ContentType.JSON).body(FACTS).post("/api/v1/facts").then().statusCode(200);
        // The governance batch comes before the usage: the OOM event links whatever the order.
        given().contentType(ContentType.JSON).body(GOVERNANCE).post("/api/v1/facts/governance").then().statusCode(200)
                .body("accepted", equalTo(4));
        for (String scrapes : List.of(SCRAPES_1, SCRAPES_1, SCRAPES_2, SCRAPES_3, SCRAPES_2)) {
            given().contentType(ContentType.JSON).body(scrapes).post("/api/v1/usage").then().statusCode(200);
        }
    }

    static ValidatableResponse failures(String groupBy) {
        return given().queryParams(Map.of("from", "2024-04-01T00:00:00Z", "to", "2024-04-02T00:00:00Z", "groupBy", groupBy,
                "cluster", "fsrc")).get("/api/v1/failures").then().statusCode(200);
    }

    @Test
    void everySourceCountsOnceByCauseWithRateAndMttr() {
        failures("cause").body("key", equalTo(List.of("gpu-lost", "mig-reconfiguration", "oom", "xid-31", "xid-48")))
                .body("rootCauseClass", equalTo(List.of("data-plane", "operations-configuration", "workload", "workload", "data-plane")))
                .body("count", equalTo(List.of(1, 1, 2, 1, 1)))
                .body("[0].gpuHours", equalTo(10)).body("[0].podStarts", equalTo(2))
                .body("[0].mttrP50Seconds", equalTo(7200)).body("[0].ratePer1000GpuHours", equalTo(100))
                .body("[0].ratePerPodStart", equalTo(0.5f))
                .body("[1].mttrP50Seconds", equalTo(900))
                .body("[2].ratePer1000GpuHours", equalTo(200)).body("[2].ratePerPodStart", equalTo(1))
                .body("[2].mttrP50Seconds", equalTo(40)).body("[2].mttrMeanSeconds", equalTo(40))
                .body("[2].recovered", equalTo(1)).body("[2].open", equalTo(0))
                .body("[3].mttrP50Seconds", equalTo(0))
                .body("[4].mttrP50Seconds", equalTo(1800)).body("open", equalTo(List.of(0, 0, 0, 0, 0)));
    }

    @Test
    void byRootCauseClass() {
        failures("rootCause").body("key", equalTo(List.of("data-plane", "operations-configuration", "workload")))
                .body("count", equalTo(List.of(2, 1, 3)))
                .body("[0].mttrP50Seconds", equalTo(1800)).body("[0].mttrMeanSeconds", equalTo(4500))
                .body("[1].mttrP50Seconds", equalTo(900))
                .body("[2].mttrP50Seconds", equalTo(0)).body("[2].mttrMeanSeconds", equalTo(20));
    }

    @Test
    void byTenantAndNode() {
        failures("tenant").body("key", equalTo(List.of("ml", "unallocated")))
                .body("count", equalTo(List.of(5, 1)))
                .body("[0].gpuHours", equalTo(5)).body("[0].ratePer1000GpuHours", equalTo(1000))
                .body("[0].mttrP50Seconds", equalTo(40)).body("[0].mttrMeanSeconds", equalTo(685));
        failures("node").body("key", equalTo(List.of("gpu-5"))).body("[0].count", equalTo(6));
    }

    @Test
    void theIncidentsNameTheirCardNodeOrPod() {
        given().queryParams(Map.of("from", "2024-04-01T00:00:00Z", "to", "2024-04-02T00:00:00Z", "cluster", "fsrc"))
                .get("/api/v1/failures/incidents").then().statusCode(200)
                .body("cause", equalTo(List.of("xid-31", "xid-48", "oom", "gpu-lost", "mig-reconfiguration", "oom")))
                .body("scope", equalTo(List.of("dcgm", "dcgm", "pod", "node", "node", "node-oom")))
                .body("startedAt", equalTo(List.of("2024-04-01T01:01:00Z", "2024-04-01T02:01:00Z", "2024-04-01T03:00:00Z",
                        "2024-04-01T04:00:00Z", "2024-04-01T06:00:00Z", "2024-04-01T08:00:00Z")))
                .body("[1].gpuUuid", equalTo("GPU-5a")).body("[1].recoveredAt", equalTo("2024-04-01T02:31:00Z"))
                .body("[2].pod", equalTo("trainer-1")).body("[2].namespace", equalTo("ml"))
                .body("[3].gpuUuid", equalTo("GPU-5b")).body("[3].repairSeconds", equalTo(7200))
                .body("[4].recoveredAt", equalTo("2024-04-01T06:15:00Z"))
                .body("[5].endedAt", equalTo("2024-04-01T08:00:00Z")).body("[5].recoveredAt", nullValue())
                .body("[5].evidence", equalTo("OOMKilling on node gpu-5, killed process 77 (java) (no OOMKilled container on the node within 60 s)"));
    }

    @Test
    void whatAPodHeldAtAnInstant() {
        occupants(Map.of("namespace", "ml", "pod", "trainer-1", "at", "2024-04-01T05:00:00Z", "cluster", "fsrc"))
                .statusCode(200).body("$", hasSize(1))
                .body("[0].gpuUuid", equalTo("GPU-5a")).body("[0].node", equalTo("gpu-5")).body("[0].podUid", equalTo("t1"))
                .body("[0].fraction", equalTo(0.5f)).body("[0].unit.kind", equalTo("VGPU")).body("[0].unit.cores", equalTo(50))
                .body("[0].since", equalTo("2024-04-01T00:00:00Z")).body("[0].until", equalTo("2024-04-01T10:00:00Z"));
        // The same pod name in another namespace, and the pod itself after it finished.
        occupants(Map.of("namespace", "other", "pod", "trainer-1", "at", "2024-04-01T05:00:00Z")).statusCode(200).body("$", hasSize(0));
        occupants(Map.of("namespace", "ml", "pod", "trainer-1", "at", "2024-04-01T10:00:00Z")).statusCode(200).body("$", hasSize(0));
        occupants(Map.of("namespace", "other", "pod", "trainer-1", "at", "2024-04-01T13:00:00Z", "cluster", "fsrc"))
                .statusCode(200).body("podUid", equalTo(List.of("o1")));
        occupants(Map.of("namespace", "ml", "pod", "trainer-1", "at", "2024-04-01T05:00:00Z", "cluster", "elsewhere"))
                .statusCode(200).body("$", hasSize(0));
        occupants(Map.of("namespace", "ml", "pod", "nobody")).statusCode(200).body("$", hasSize(0));
    }

    @Test
    void aPodLookupWithoutItsNameOrNamespaceIsAProblem() {
        occupants(Map.of("namespace", "ml")).statusCode(400).contentType("application/problem+json").body("field", equalTo("pod"));
        occupants(Map.of("pod", "trainer-1")).statusCode(400).contentType("application/problem+json").body("field", equalTo("namespace"));
        occupants(Map.of("namespace", "ml", "pod", " ")).statusCode(400).body("field", equalTo("pod"));
        occupants(Map.of("namespace", "ml", "pod", "trainer-1", "at", "noon")).statusCode(400).body("field", equalTo("at"));
    }

    static ValidatableResponse occupants(Map<String, String> params) {
        return given().queryParams(params).get("/api/v1/occupants").then();
    }
}
