package io.gpumeter.ledger.rest;

import io.gpumeter.common.testing.Contract;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

/**
 * A HAMi pod granted 30 % of GPU-V's cores and 8192 MiB from 10:00 to 10:30; its container's core use is 0.45 of
 * the card for 10:05-10:11 (6 minutes: hard) and 0.40 at 10:20 (1 minute: soft); after 10:30 it keeps computing
 * at 0.2 for 10:30-10:31 (bypass). HAMi accounts 4000 MiB to the card's containers while FB_USED says 9000 at
 * 10:25 (drift: 5000 MiB, 5/9 of FB_USED).
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class ViolationResourceTest {

    static String sample(String scope, String key, String field, double value, String at) {
        return "{\"gpuUuid\":\"GPU-V\",\"scope\":\"" + scope + "\",\"scopeKey\":\"" + key + "\",\"field\":\"" + field
                + "\",\"value\":" + value + ",\"at\":\"" + at + "\"}";
    }

    @Test
    void overUseBypassAndDriftAreFoundAndClassified() {
        String pod = "{\"cluster\":\"v\",\"nodes\":[{\"name\":\"n1\",\"resourceVersion\":\"1\",\"type\":\"ADDED\","
                + "\"observedAt\":\"2026-08-01T00:00:00Z\",\"labels\":{\"nvidia.com/gpu.product\":\"NVIDIA-H100-80GB-HBM3\"},"
                + "\"gpus\":[{\"uuid\":\"GPU-V\",\"model\":\"NVIDIA-H100-80GB-HBM3\",\"memoryMib\":81920,\"cores\":100,\"splitCount\":10}]}],"
                + "\"pods\":[{\"uid\":\"v1\",\"namespace\":\"ml\",\"name\":\"p\",\"resourceVersion\":\"2\","
                + "\"type\":\"MODIFIED\",\"observedAt\":\"2026-08-03T10:30:00Z\",\"scheduledAt\":\"2026-08-03T10:00:00Z\","
                + "\"nodeName\":\"n1\",\"allTerminated\":true,\"lastFinishedAt\":\"2026-08-03T10:30:00Z\","
                + "\"gpuResources\":{\"nvidia.com/gpu\":1,\"nvidia.com/gpumem\":8192,\"nvidia.com/gpucores\":30},"
                + "\"vgpus\":[{\"container\":0,\"uuid\":\"GPU-V\",\"type\":\"NVIDIA\",\"memoryMib\":8192,\"cores\":30}],"
                + "\"hamiBindPhase\":\"success\",\"hamiNode\":\"n1\"}]}";
        given().contentType(ContentType.JSON).body(pod).post("/api/v1/facts").then().statusCode(200);
        List<String> samples = new ArrayList<>();
        for (int m = 5; m <= 10; m++) {
            samples.add(sample("CONTAINER", "ml/p/main", "VGPU_CORE_UTIL", 0.45, String.format("2026-08-03T10:%02d:10Z", m)));
        }
        samples.add(sample("CONTAINER", "ml/p/main", "VGPU_CORE_UTIL", 0.30, "2026-08-03T10:11:10Z"));
        samples.add(sample("CONTAINER", "ml/p/main", "VGPU_CORE_UTIL", 0.40, "2026-08-03T10:20:10Z"));
        samples.add(sample("CONTAINER", "ml/p/main", "VGPU_CORE_UTIL", 0.20, "2026-08-03T10:30:10Z"));
        samples.add(sample("CONTAINER", "ml/p/main", "VGPU_MEMORY_USED_MIB", 4000, "2026-08-03T10:25:10Z"));
        samples.add(sample("DEVICE", "", "FB_USED_MIB", 9000, "2026-08-03T10:25:10Z"));
        given().contentType(ContentType.JSON).body("{\"cluster\":\"v\",\"samples\":[" + String.join(",", samples) + "]}")
                .post("/api/v1/usage").then().statusCode(200);

        // the database is shared with other tests, whose pods still running cross this hour too: this cluster's only
        String v = "findAll { it.cluster == 'v' }";
        String example = given().queryParam("from", "2026-08-03T10:00:00Z").queryParam("to", "2026-08-03T11:00:00Z")
                .get("/api/v1/violations").then().statusCode(200)
                .body(v, hasSize(4))
                .body(v + ".kind", equalTo(List.of("HARD", "SOFT", "DRIFT", "BYPASS")))
                .body(v + "[0].start", equalTo("2026-08-03T10:05:00Z")).body(v + "[0].end", equalTo("2026-08-03T10:11:00Z"))
                .body(v + "[0].minutes", equalTo(6)).body(v + "[0].resource", equalTo("CORES")).body(v + "[0].pod", equalTo("p"))
                .body(v + "[0].peakRatio", equalTo(1.5f))
                .body(v + "[1].minutes", equalTo(1))
                .body(v + "[2].resource", equalTo("MEMORY")).body(v + "[2].gpuUuid", equalTo("GPU-V"))
                .body(v + "[3].start", equalTo("2026-08-03T10:30:00Z")).body(v + "[3].peakRatio", equalTo(null)).extract().asString();
        // alert-service's rules read the violations from this answer
        Contract.record("ledger", "violations", example);
    }

    @Test
    void windowsAreBounded() {
        given().queryParam("from", "2026-08-01T00:00:00Z").queryParam("to", "2026-08-30T00:00:00Z")
                .get("/api/v1/violations").then().statusCode(400).contentType("application/problem+json")
                .body("field", equalTo("to"));
        given().queryParam("from", "later").queryParam("to", "2026-08-30T00:00:00Z")
                .get("/api/v1/violations").then().statusCode(400).body("field", equalTo("from"));
    }
}
