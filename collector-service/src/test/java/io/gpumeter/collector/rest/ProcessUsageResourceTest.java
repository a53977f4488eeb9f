package io.gpumeter.collector.rest;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpumeter.collector.testing.LedgerStandIn;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** nvidia-smi's per-process forms pushed to the same endpoint as the GPU query. */
@QuarkusTest
@WithTestResource(LedgerStandIn.class)
class ProcessUsageResourceTest {

    private static final String PMON_HEAD = "# gpu         pid   type     sm    mem    enc    dec    jpg    ofa    command \n"
            + "# Idx           #    C/G      %      %      %      %      %      %    name \n";

    @BeforeEach
    void reset() {
        LedgerStandIn.reset();
    }

    private static List<JsonNode> samples() {
        return LedgerStandIn.usage().stream().flatMap(b -> b.path("samples").valueStream()).toList();
    }

    @Test
    void computeAppsBecomePerProcessMemoryOfTheNamedPods() {
        LedgerStandIn.usageReceipt(2);
        String csv = "pid, used_memory [MiB], gpu_uuid, timestamp\n"
                + "4242, 20480 MiB, GPU-A, 2026/07/03 22:22:01.444\n"
                + "4243, 512 MiB, GPU-A, 2026/07/03 22:22:01.444\n";
        given().contentType("text/csv").header("X-Gpumeter-Pids", "4242=ml/train-0/trainer").body(csv)
                .queryParam("node", "n1").queryParam("tz", "Europe/Berlin").post("/api/v1/ingest/nvidia-smi").then()
                .statusCode(200).body("samples", equalTo(2)).body("accepted", equalTo(2)).body("skipped", equalTo(0));
        List<JsonNode> samples = samples();
        assertEquals(2, samples.size());
        JsonNode named = samples.get(0);
        assertEquals("PROCESS", named.path("scope").asText());
        assertEquals("ml/train-0/trainer/4242", named.path("scopeKey").asText());
        assertEquals("ml", named.path("namespace").asText());
        assertEquals("train-0", named.path("pod").asText());
        assertEquals("trainer", named.path("container").asText());
        assertEquals("FB_USED_MIB", named.path("field").asText());
        assertEquals(20480, named.path("value").asDouble(), 0);
        assertEquals("2026-07-03T20:22:01.444Z", named.path("at").asText());
        JsonNode unnamed = samples.get(1);
        assertEquals("PROCESS", unnamed.path("scope").asText());
        assertEquals("4243", unnamed.path("scopeKey").asText(), "a process nobody named is kept under its pid");
        assertTrue(unnamed.path("pod").isNull());
    }

    @Test
    void computeAppsWithNothingRunningStoreNothing() {
        given().contentType("text/csv").body("timestamp, gpu_uuid, pid, used_gpu_memory [MiB]\n").queryParam("node", "n1")
                .post("/api/v1/ingest/nvidia-smi").then().statusCode(200).body("samples", equalTo(0));
        assertTrue(LedgerStandIn.usage().isEmpty());
    }

    @Test
    void pmonBecomesPerProcessUtilizationOfTheMappedCards() {
        String text = PMON_HEAD
                + "    0      18434     C     94     47      0      0      0      0    python         \n"
                + "    1      18435     C      -      -      -      -      -      -    memhog         \n";
        given().contentType("text/plain").header("X-Gpumeter-Gpus", "0=GPU-A,1=GPU-B")
                .header("X-Gpumeter-Pids", "18434=chat/vllm-0/engine,18435=chat/vllm-1/engine").body(text)
                .queryParam("node", "n1").post("/api/v1/ingest/nvidia-smi").then().statusCode(200)
                .body("samples", equalTo(1)).body("skipped", equalTo(1))
                .body("problems[0]", containsString("pid 18435 on GPU-B"));
        JsonNode sample = samples().get(0);
        assertEquals("GPU-A", sample.path("gpuUuid").asText());
        assertEquals("PROCESS", sample.path("scope").asText());
        assertEquals("chat/vllm-0/engine/18434", sample.path("scopeKey").asText());
        assertEquals("GPU_UTIL", sample.path("field").asText());
        assertEquals(0.94, sample.path("value").asDouble(), 1e-12);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "bad pid entry          | text/csv   | 12=ML/p  |          | 'timestamp, gpu_uuid, pid, used_memory [MiB]\n2026/07/03 22:22:01.444, GPU-A, 12, 5 MiB' | X-Gpumeter-Pids",
            "pid not a number       | text/csv   |          |          | 'timestamp, gpu_uuid, pid, used_memory [MiB]\n2026/07/03 22:22:01.444, GPU-A, 12a, 5 MiB' | line 2",
            "memory in GiB          | text/csv   |          |          | 'timestamp, gpu_uuid, pid, used_memory [GiB]\n2026/07/03 22:22:01.444, GPU-A, 12, 5 GiB' | line 1",
            "fractional MiB         | text/csv   |          |          | 'timestamp, gpu_uuid, pid, used_memory [MiB]\n2026/07/03 22:22:01.444, GPU-A, 12, 5.5 MiB' | line 2",
            "no gpu_uuid on a row   | text/csv   |          |          | 'timestamp, gpu_uuid, pid, used_memory [MiB]\n2026/07/03 22:22:01.444, [N/A], 12, 5 MiB' | line 2",
            "accounted apps         | text/csv   |          |          | 'timestamp, gpu_uuid, pid, gpu_utilization [%], time [ms]\n2026/07/03 22:22:01.444, GPU-A, 12, 5 %, 10 ms' | line 1",
            "pmon without gpu map   | text/plain |          |          | '# gpu pid type sm mem command\n0 10 C 5 1 python' | X-Gpumeter-Gpus",
            "pmon unmapped index    | text/plain |          | 0=GPU-A  | '# gpu pid type sm mem command\n3 10 C 5 1 python' | X-Gpumeter-Gpus",
            "pmon bad gpu map       | text/plain |          | 0=MIG-1  | '# gpu pid type sm mem command\n0 10 C 5 1 python' | X-Gpumeter-Gpus",
            "pmon short row         | text/plain |          | 0=GPU-A  | '# gpu pid type sm mem command\n0 10 C 5' | line 2",
            "pmon sm over 100       | text/plain |          | 0=GPU-A  | '# gpu pid type sm mem command\n0 10 C 150 1 python' | line 2",
            "pmon no header         | text/plain |          | 0=GPU-A  | '0 10 C 5 1 python' | line 1",
    })
    void badPerProcessBodiesAreRefusedWhole(String name, String type, String pids, String gpus, String body, String field) {
        RequestSpecification request = given().contentType(type).body(body.replace("\\n", "\n")).queryParam("node", "n1");
        if (pids != null) {
            request = request.header("X-Gpumeter-Pids", pids);
        }
        if (gpus != null) {
            request = request.header("X-Gpumeter-Gpus", gpus);
        }
        request.post("/api/v1/ingest/nvidia-smi").then().statusCode(400).contentType("application/problem+json")
                .body("field", equalTo(field));
        assertTrue(LedgerStandIn.usage().isEmpty());
    }
}
