package io.gpumeter.ledger.governance.rest;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * GPU health failures from dcgm-exporter's memory-health series, for cluster "fhealth" on 2024-05-01 (all times that
 * day, UTC). Worked out by hand:
 * <pre>
 * pods     ml/trainer-7 holds half of GPU-7a (HAMi 50 cores) 00:00-10:00 = 5 GPU-hours, 1 pod start; GPU-7b is free.
 * GPU-7a   remap failure 0 at 00:00 and 00:00:30, 1 from 01:00:00 (scraped 3 times, and at 02:00 and 02:30), 0 at 03:00;
 *          the DBE count 0 until 2 at 02:00 (a further report), 0 again at 02:30 (reset), still 0 at 03:00:
 *          incident 1: 01:00:00 -> 03:00:00 = 7200 s, 2 occurrences.
 *          DBE 0 at 04:59:30, 3 at 05:00:00 (device and a MIG instance's copy) and 05:00:30, 5 at 05:10 (a further
 *          report), 0 at 06:00: incident 2: 05:00:00 -> 06:00:00 = 3600 s, 2 occurrences.
 * GPU-7b   pages pending retirement first read as 1 at 07:00:00, 1 at 07:00:30, 0 at 07:15:00: incident 3, 900 s.
 *          row remap pending 0 at 07:59:30, 1 from 08:00:00, never cleared: incident 4, open.
 * by cause gpu-health (data-plane): 4, recovered 3, open 1; MTTR [900, 3600, 7200]: nearest-rank p50 = rank
 *          ceil(0.5 x 3) = 2 -> 3600, mean 11700 / 3 = 3900; rate 4 x 1000 / 5 GPU-hours = 800, per pod start 4 / 1 = 4.
 * tenant   ml held GPU-7a at 01:00 and 05:00: incidents 1 and 2, MTTR [3600, 7200]: p50 rank 1 -> 3600, mean 5400,
 *          rate 2 x 1000 / 5 = 400; GPU-7b held by nobody: unallocated, incidents 3 and 4, p50 900, 1 open.
 * stored   runs of one value keep their first and last reading: GPU-7a's flag 0@00:00, 0@00:30, 1@01:00, 1@02:30,
 *          0@03:00 (1@01:01 and 1@02:00 now sit inside the run of 1s); its DBE 0@00:00, 0@00:30, 2@02:00, 0@02:30,
 *          0@04:59:30, 3@05:00, 3@05:00:30, 5@05:10, 0@06:00 (0@03:00 sits inside the run of 0s); GPU-7b 3 + 3.
 *          20 rows, however often a batch is resent.
 * </pre>
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class GpuHealthFailuresResourceTest {

    static final String FACTS = """
            {"cluster":"fhealth","nodes":[
             {"name":"gpu-7","uid":"n7","resourceVersion":"10","type":"MODIFIED","observedAt":"2024-05-01T00:00:00Z",
              "labels":{},"gpus":[
               {"uuid":"GPU-7a","model":"NVIDIA-A100-SXM4-80GB","memoryMib":81920,"cores":100,"splitCount":10},
               {"uuid":"GPU-7b","model":"NVIDIA-A100-SXM4-80GB","memoryMib":81920,"cores":100,"splitCount":10}]}],
             "pods":[%s,%s]}
            """.formatted(pod("100", "2024-05-01T00:00:01Z", null), pod("200", "2024-05-01T10:00:01Z", "2024-05-01T10:00:00Z"));

    static String pod(String rv, String observed, String finished) {
        return """
                {"uid":"h1","namespace":"ml","name":"trainer-7","resourceVersion":"%s","type":"MODIFIED","observedAt":"%s",
                 "scheduledAt":"2024-05-01T00:00:00Z","nodeName":"gpu-7","phase":"%s","allTerminated":%s,"lastFinishedAt":%s,
                 "gpuResources":{"nvidia.com/gpu":1,"nvidia.com/gpumem":40960,"nvidia.com/gpucores":50},
                 "vgpus":[{"container":0,"uuid":"GPU-7a","type":"NVIDIA","memoryMib":40960,"cores":50}],
                 "hamiBindPhase":"success","hamiNode":"gpu-7"}
                """.formatted(rv, observed, finished == null ? "Running" : "Succeeded", finished != null,
                finished == null ? "null" : "\"" + finished + "\"");
    }

    static String read(String card, String field, long value, String time) {
        return read(card, "DEVICE", "", field, value, time);
    }

    static String read(String card, String scope, String key, String field, long value, String time) {
        return "{\"gpuUuid\":\"" + card + "\",\"node\":\"gpu-7\",\"scope\":\"" + scope + "\",\"scopeKey\":\"" + key
                + "\",\"field\":\"" + field + "\",\"value\":" + value + ",\"at\":\"2024-05-01T" + time + "Z\"}";
    }

    static String usage(String... samples) {
        return "{\"cluster\":\"fhealth\",\"samples\":[" + String.join(",", samples) + "]}";
    }

    static final String FLAG = "ROW_REMAP_FAILURE";
    static final String DBE = "ECC_DBE_VOLATILE";

    static final String BATCH_A = usage(read("GPU-7a", FLAG, 0, "00:00:00"), read("GPU-7a", DBE, 0, "00:00:00"),
            read("GPU-7a", FLAG, 0, "00:00:30"), read("GPU-7a", DBE, 0, "00:00:30"),
            read("GPU-7a", FLAG, 1, "01:00:00"), read("GPU-7a", FLAG, 1, "01:00:30"), read("GPU-7a", FLAG, 1, "01:01:00"));
    static final String BATCH_B = usage(read("GPU-7a", FLAG, 1, "02:00:00"), read("GPU-7a", DBE, 2, "02:00:00"),
            read("GPU-7a", FLAG, 1, "02:30:00"), read("GPU-7a", DBE, 0, "02:30:00"),
            read("GPU-7a", FLAG, 0, "03:00:00"), read("GPU-7a", DBE, 0, "03:00:00"));
    static final String BATCH_C = usage(read("GPU-7a", DBE, 0, "04:59:30"), read("GPU-7a", DBE, 3, "05:00:00"),
            read("GPU-7a", "MIG_INSTANCE", "13", DBE, 3, "05:00:00"), read("GPU-7a", DBE, 3, "05:00:30"),
            read("GPU-7a", DBE, 5, "05:10:00"), read("GPU-7a", DBE, 0, "06:00:00"));
    static final String BATCH_D = usage(read("GPU-7b", "RETIRED_PAGES_PENDING", 1, "07:00:00"),
            read("GPU-7b", "RETIRED_PAGES_PENDING", 1, "07:00:30"), read("GPU-7b", "RETIRED_PAGES_PENDING", 0, "07:15:00"));
    static final String BATCH_E = usage(read("GPU-7b", "ROW_REMAP_PENDING", 0, "07:59:30"),
            read("GPU-7b", "ROW_REMAP_PENDING", 1, "08:00:00"), read("GPU-7b", "ROW_REMAP_PENDING", 1, "08:00:30"));

    private static boolean loaded;

    @Inject
    Pool pool;

    @BeforeEach
    void load() {
        if (loaded) {
            return;
        }
        loaded = true;
        given().contentType(ContentType.JSON).body(FACTS).post("/api/v1/facts").then().statusCode(200);
        // A resent batch (A twice, B again at the end) adds nothing; GPU-7b's batches arrive out of order.
        for (String batch : List.of(BATCH_A, BATCH_A, BATCH_B, BATCH_D, BATCH_C, BATCH_E, BATCH_B)) {
            given().contentType(ContentType.JSON).body(batch).post("/api/v1/usage").then().statusCode(200);
        }
    }

    static ValidatableResponse failures(String groupBy) {
        return given().queryParams(Map.of("from", "2024-05-01T00:00:00Z", "to", "2024-05-02T00:00:00Z", "groupBy", groupBy,
                "cluster", "fhealth")).get("/api/v1/failures").then().statusCode(200);
    }

    @Test
    void byCauseWithRateAndMttr() {
        failures("cause").body("key", equalTo(List.of("gpu-health"))).body("[0].rootCauseClass", equalTo("data-plane"))
                .body("[0].count", equalTo(4)).body("[0].recovered", equalTo(3)).body("[0].open", equalTo(1))
                .body("[0].mttrP50Seconds", equalTo(3600)).body("[0].mttrMeanSeconds", equalTo(3900))
                .body("[0].gpuHours", equalTo(5)).body("[0].podStarts", equalTo(1))
                .body("[0].ratePer1000GpuHours", equalTo(800)).body("[0].ratePerPodStart", equalTo(4));
    }

    @Test
    void byRootCauseNodeAndTenant() {
        failures("rootCause").body("key", equalTo(List.of("data-plane"))).body("[0].count", equalTo(4))
                .body("[0].mttrP50Seconds", equalTo(3600));
        failures("node").body("key", equalTo(List.of("gpu-7"))).body("[0].count", equalTo(4));
        failures("tenant").body("key", equalTo(List.of("ml", "unallocated"))).body("count", equalTo(List.of(2, 2)))
                .body("[0].mttrP50Seconds", equalTo(3600)).body("[0].mttrMeanSeconds", equalTo(5400))
                .body("[0].ratePer1000GpuHours", equalTo(400))
                .body("[1].mttrP50Seconds", equalTo(900)).body("[1].open", equalTo(1));
    }

    @Test
    void theIncidentsNameTheirCardWithExactStartAndRecovery() {
        given().queryParams(Map.of("from", "2024-05-01T00:00:00Z", "to", "2024-05-02T00:00:00Z", "cluster", "fhealth",
                        "cause", "gpu-health"))
                .get("/api/v1/failures/incidents").then().statusCode(200)
                .body("scope", equalTo(List.of("dcgm-health", "dcgm-health", "dcgm-health", "dcgm-health")))
                .body("gpuUuid", equalTo(List.of("GPU-7a", "GPU-7a", "GPU-7b", "GPU-7b")))
                .body("node", equalTo(List.of("gpu-7", "gpu-7", "gpu-7", "gpu-7")))
                .body("startedAt", equalTo(List.of("2024-05-01T01:00:00Z", "2024-05-01T05:00:00Z", "2024-05-01T07:00:00Z",
                        "2024-05-01T08:00:00Z")))
                .body("recoveredAt", equalTo(java.util.Arrays.asList("2024-05-01T03:00:00Z", "2024-05-01T06:00:00Z",
                        "2024-05-01T07:15:00Z", null)))
                .body("repairSeconds", equalTo(java.util.Arrays.asList(7200, 3600, 900, null)))
                .body("occurrences", equalTo(List.of(2, 2, 1, 1)))
                .body("[0].evidence", equalTo("DCGM_FI_DEV_ROW_REMAP_FAILURE changed from 0 to 1 (a row remap failed: "
                        + "the card needs a reset, and a replacement if it fails again)"))
                .body("[2].evidence", equalTo("DCGM_FI_DEV_RETIRED_PENDING first read as 1 (memory pages wait to be retired "
                        + "at the next reset)"))
                .body("[3].recoveredAt", nullValue());
    }

    @Test
    void onlyTheBoundariesOfEachRunAreStoredHoweverOftenABatchArrives() {
        List<String> stored = new ArrayList<>();
        pool.preparedQuery("SELECT gpu_uuid, signal, value, to_char(at AT TIME ZONE 'UTC', 'HH24:MI:SS') AS t "
                        + "FROM ledger.gpu_health_reading WHERE cluster = $1 ORDER BY gpu_uuid, signal, at")
                .execute(Tuple.of("fhealth")).await().indefinitely()
                .forEach(r -> stored.add(r.getString("gpu_uuid") + " " + r.getString("signal") + " " + r.getLong("value") + "@" + r.getString("t")));
        assertEquals(List.of(
                "GPU-7a ECC_DBE_VOLATILE 0@00:00:00", "GPU-7a ECC_DBE_VOLATILE 0@00:00:30", "GPU-7a ECC_DBE_VOLATILE 2@02:00:00",
                "GPU-7a ECC_DBE_VOLATILE 0@02:30:00", "GPU-7a ECC_DBE_VOLATILE 0@04:59:30", "GPU-7a ECC_DBE_VOLATILE 3@05:00:00",
                "GPU-7a ECC_DBE_VOLATILE 3@05:00:30", "GPU-7a ECC_DBE_VOLATILE 5@05:10:00", "GPU-7a ECC_DBE_VOLATILE 0@06:00:00",
                "GPU-7a ROW_REMAP_FAILURE 0@00:00:00", "GPU-7a ROW_REMAP_FAILURE 0@00:00:30", "GPU-7a ROW_REMAP_FAILURE 1@01:00:00",
                "GPU-7a ROW_REMAP_FAILURE 1@02:30:00", "GPU-7a ROW_REMAP_FAILURE 0@03:00:00",
                "GPU-7b RETIRED_PAGES_PENDING 1@07:00:00", "GPU-7b RETIRED_PAGES_PENDING 1@07:00:30",
                "GPU-7b RETIRED_PAGES_PENDING 0@07:15:00", "GPU-7b ROW_REMAP_PENDING 0@07:59:30",
                "GPU-7b ROW_REMAP_PENDING 1@08:00:00", "GPU-7b ROW_REMAP_PENDING 1@08:00:30"), stored);
    }
}
