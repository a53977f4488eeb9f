package io.gpumeter.ledger.governance.rest;

import io.gpumeter.common.testing.Contract;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

/**
 * What a driver upgrade did, cluster "chgimp" (no other test writes there), worked out by hand:
 * <pre>
 * gpu-x    driver 550.54.15 from 00:00, 560.35.03 from 05:00 (GFD labels) -> DRIVER_VERSION at 05:00
 * pod h1   holds half of GPU-xa 00:00 -> 10:00: 2.5 GPU-hours before the upgrade [00:00, 05:00), 2.5 after
 * Xids     79 at 02:00 (gpu-lost), the card announced again at 03:00 (recovered: 3600 s); 79 at 06:00 (open) and
 *          13 at 07:00 (xid-13), all on 0000:3b:00
 * before   1 failure (gpu-lost): 1 x 1000 / 2.5 = 400 per 1,000 GPU-hours, MTTR 3600 s; Xid 79 x1
 * after    2 failures (gpu-lost, xid-13): 800 per 1,000 GPU-hours; Xid 13 x1, 79 x1
 * </pre>
 * With no window given, the configured day on each side; from alone mirrors the window after the change.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class ChangeImpactResourceTest {

    static String node(String rv, String at, String driver) {
        String[] d = driver.split("\\.");
        return """
                {"name":"gpu-x","uid":"nx","resourceVersion":"%s","type":"MODIFIED","observedAt":"%s",
                 "labels":{"nvidia.com/cuda.driver.major":"%s","nvidia.com/cuda.driver.minor":"%s","nvidia.com/cuda.driver.rev":"%s"},
                 "gpus":[{"uuid":"GPU-xa","model":"NVIDIA-A100-SXM4-80GB","memoryMib":81920,"cores":100,"splitCount":10}]}
                """.formatted(rv, at, d[0], d[1], d[2]);
    }

    static String pod(String rv, String observed, String finished) {
        return """
                {"uid":"ix1","namespace":"ml","name":"trainer-x","resourceVersion":"%s","type":"MODIFIED","observedAt":"%s",
                 "scheduledAt":"2024-06-01T00:00:00Z","nodeName":"gpu-x","phase":"%s","allTerminated":%s,"lastFinishedAt":%s,
                 "gpuResources":{"nvidia.com/gpu":1,"nvidia.com/gpumem":40960,"nvidia.com/gpucores":50},
                 "vgpus":[{"container":0,"uuid":"GPU-xa","type":"NVIDIA","memoryMib":40960,"cores":50}],
                 "hamiBindPhase":"success","hamiNode":"gpu-x"}
                """.formatted(rv, observed, finished == null ? "Running" : "Succeeded", finished != null,
                finished == null ? "null" : "\"" + finished + "\"");
    }

    static String xid(String at, int code) {
        return "{\"node\":\"gpu-x\",\"pciBusId\":\"0000:3b:00\",\"at\":\"" + at + "\",\"code\":" + code
                + ",\"pid\":0,\"message\":\"Xid " + code + "\",\"source\":\"kmsg\"}";
    }

    static final String FACTS = "{\"cluster\":\"chgimp\",\"nodes\":[" + node("10", "2024-06-01T00:00:00Z", "550.54.15") + ","
            + node("20", "2024-06-01T05:00:00Z", "560.35.03") + "],\"pods\":["
            + pod("100", "2024-06-01T00:00:01Z", null) + "," + pod("200", "2024-06-01T10:00:01Z", "2024-06-01T10:00:00Z") + "]}";

    static final String XIDS = "{\"cluster\":\"chgimp\",\"xids\":[" + xid("2024-06-01T02:00:00Z", 79) + ","
            + xid("2024-06-01T06:00:00Z", 79) + "," + xid("2024-06-01T07:00:00Z", 13) + "],\"gpuAddresses\":["
            + "{\"node\":\"gpu-x\",\"pciBusId\":\"0000:3b:00\",\"gpuUuid\":\"GPU-xa\",\"at\":\"2024-06-01T03:00:00Z\"}]}";

    private static boolean loaded;
    private static String id;

    @BeforeEach
    void load() {
        if (!loaded) {
            loaded = true;
            given().contentType(ContentType.JSON).body(FACTS).post("/api/v1/facts").then().statusCode(200);
            given().contentType(ContentType.JSON).body(XIDS).post("/api/v1/facts/governance").then().statusCode(200);
            id = given().queryParams(Map.of("from", "2024-06-01T00:00:00Z", "to", "2024-06-02T00:00:00Z", "cluster", "chgimp",
                            "kind", "DRIVER_VERSION")).get("/api/v1/changes").then().statusCode(200)
                    .body("after", contains("560.35.03")).extract().path("[0].id");
        }
    }

    static ValidatableResponse impact(String... params) {
        var request = given();
        for (int i = 0; i < params.length; i += 2) {
            request = request.queryParam(params[i], params[i + 1]);
        }
        return request.get("/api/v1/changes/" + id + "/impact").then();
    }

    @Test
    void failuresPerThousandGpuHoursAndXidsBeforeAndAfter() {
        String example = impact("from", "2024-06-01T00:00:00Z").statusCode(200)
                .body("change.kind", equalTo("DRIVER_VERSION")).body("nodes", contains("gpu-x"))
                .body("before.from", equalTo("2024-06-01T00:00:00Z")).body("before.to", equalTo("2024-06-01T05:00:00Z"))
                .body("after.from", equalTo("2024-06-01T05:00:00Z")).body("after.to", equalTo("2024-06-01T10:00:00Z"))
                .body("before.gpuHours", equalTo(2.5f)).body("after.gpuHours", equalTo(2.5f))
                .body("before.failures", equalTo(1)).body("after.failures", equalTo(2))
                .body("before.mttrP50Seconds", equalTo(3600)).body("before.byCause[0].recovered", equalTo(1))
                .body("before.ratePer1000GpuHours", equalTo(400)).body("after.ratePer1000GpuHours", equalTo(800))
                .body("before.byCause.key", contains("gpu-lost")).body("after.byCause.key", contains("gpu-lost", "xid-13"))
                .body("before.xids", equalTo(Map.of("79", 1))).body("after.xids", equalTo(Map.of("13", 1, "79", 1))).extract().asString();
        // slo-service reads a change's windows and GPU-hours from this answer
        Contract.record("ledger", "change-impact", example);
    }

    @Test
    void withoutAWindowTheConfiguredDayOnEachSide() {
        impact().statusCode(200)
                .body("before.from", equalTo("2024-05-31T05:00:00Z")).body("after.to", equalTo("2024-06-02T05:00:00Z"))
                .body("before.failures", equalTo(1)).body("after.failures", equalTo(2));
    }

    @Test
    void anUnknownChangeOrAWindowOnTheWrongSideIsAProblem() {
        given().get("/api/v1/changes/0000/impact").then().statusCode(404).contentType("application/problem+json")
                .body("field", equalTo("id"));
        impact("from", "2024-06-01T06:00:00Z").statusCode(400).contentType("application/problem+json")
                .body("field", equalTo("from"));
        impact("from", "not-a-time").statusCode(400).body("field", equalTo("from")).body("status", equalTo(400));
        impact("to", "2024-06-01T04:00:00Z").statusCode(400).body("field", equalTo("to")).body("detail", containsString("after the change"));
        // An hour on each side: no failure in either, over half a GPU-hour each.
        impact("from", "2024-06-01T04:00:00Z").statusCode(200).body("before.failures", equalTo(0))
                .body("before.gpuHours", equalTo(0.5f)).body("before.ratePer1000GpuHours", equalTo(0))
                .body("after.to", equalTo("2024-06-01T06:00:00Z")).body("after.failures", equalTo(0))
                .body("after.mttrP50Seconds", nullValue());
    }
}
