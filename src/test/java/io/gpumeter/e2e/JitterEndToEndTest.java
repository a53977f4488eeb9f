package io.gpumeter.e2e;

import io.gpumeter.launcher.suite.Service;
import io.gpumeter.launcher.suite.Suite;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Q4 end to end, through the real collector, ledger and slo-service: the service {@code chat} runs alone on card
 * GPU-J1 from 09:00; at 10:10 a PyTorchJob pod is scheduled onto the same card and the card's DRAM_ACTIVE ramps
 * from 0.2 to 0.8; chat's TTFT goes from 100 ms to 700 ms, past 2 × its 300 ms objective.
 * <pre>
 * minute       chat requests   TTFT     neighbours on GPU-J1   DRAM_ACTIVE
 * 10:00-10:09  10 a minute     100 ms   none                   0.2
 * 10:10-10:19  10 a minute     700 ms   research/train-9       0.8
 * 10:20-10:29  none            -        research/train-9       0.8
 * </pre>
 * Expected by hand: one jitter event [10:10, 10:20) whose only neighbour and first suspect is train-9, arrived 0
 * minutes before (arrival score 1), with the card's DRAM curve from 10:00 to 10:29; interference bucket 0 (alone)
 * p99 100 ms, bucket 1 p99 700 ms, IF_latency 7, IF_throughput 10/10 = 1, all of bucket 1 training.
 */
@ExtendWith(JitterEndToEndTest.StartSuite.class)
class JitterEndToEndTest {

    private static final String CLUSTER = "e2e-jitter";
    private static final String FROM = "2026-06-02T10:00:00Z";
    private static final String TO = "2026-06-02T10:30:00Z";
    static Suite suite;

    static final class StartSuite implements BeforeAllCallback {
        @Override
        public void beforeAll(ExtensionContext context) {
            suite = SuiteExtension.suite(context);
        }
    }

    static String url(Service service, String path) {
        return suite.url(service).resolve(path).toString();
    }

    @BeforeAll
    static void happen() {
        String stream = String.join("\n",
                "{\"type\":\"ADDED\",\"object\":{\"kind\":\"Namespace\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"ml\","
                        + "\"uid\":\"ns-ml-j\",\"resourceVersion\":\"1\",\"labels\":{\"gpumeter.io/tenant\":\"acme\"}}}}",
                "{\"type\":\"ADDED\",\"object\":{\"kind\":\"Namespace\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"research\","
                        + "\"uid\":\"ns-research-j\",\"resourceVersion\":\"2\",\"labels\":{\"gpumeter.io/tenant\":\"initech\"}}}}",
                "{\"type\":\"ADDED\",\"object\":{\"kind\":\"Node\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"gpu-j\","
                        + "\"uid\":\"node-gpu-j\",\"resourceVersion\":\"3\",\"creationTimestamp\":\"2026-06-01T00:00:00Z\","
                        + "\"labels\":{\"nvidia.com/gpu.product\":\"NVIDIA-H100-80GB-HBM3\",\"nvidia.com/gpu.memory\":\"81920\"},"
                        + "\"annotations\":{\"hami.io/node-nvidia-register\":\"[{\\\"id\\\": \\\"GPU-J1\\\", \\\"index\\\": 0, "
                        + "\\\"count\\\": 10, \\\"devmem\\\": 163840, \\\"devcore\\\": 100, \\\"type\\\": \\\"NVIDIA-H100-80GB-HBM3\\\", "
                        + "\\\"numa\\\": 0, \\\"mode\\\": \\\"hami-core\\\", \\\"health\\\": true}]\"}},"
                        + "\"status\":{\"capacity\":{\"nvidia.com/gpu\":\"1\"}}}}",
                pod("ml", "chat-0", "Deployment", "chat", "2026-06-02T09:00:00Z", "10"),
                pod("research", "train-9", "PyTorchJob", "train-9", "2026-06-02T10:10:00Z", "11")) + "\n";
        given().contentType("application/x-ndjson").body(stream.getBytes(StandardCharsets.UTF_8)).queryParam("cluster", CLUSTER)
                .post(url(Service.COLLECTOR, "/api/v1/ingest/kubernetes")).then().statusCode(200);

        Instant start = Instant.parse(FROM);
        for (int m = 0; m < 30; m++) {
            Instant minute = start.plusSeconds(60L * m);
            String scrape = "DCGM_FI_PROF_DRAM_ACTIVE{gpu=\"0\",UUID=\"GPU-J1\",Hostname=\"gpu-j\"} "
                    + (m < 10 ? "0.2" : "0.8") + " " + minute.plusSeconds(30).toEpochMilli() + "\n";
            given().contentType("text/plain").body(scrape).queryParam("node", "gpu-j").queryParam("cluster", CLUSTER)
                    .post(url(Service.COLLECTOR, "/api/v1/ingest/dcgm")).then().statusCode(200);
        }

        List<String> lines = new ArrayList<>();
        for (int m = 0; m < 20; m++) {
            for (int r = 0; r < 10; r++) {
                lines.add("{\"service\":\"chat\",\"namespace\":\"ml\",\"pod\":\"chat-0\",\"ts\":\""
                        + start.plusSeconds(60L * m + 5L * r) + "\",\"ttftMs\":" + (m < 10 ? 100 : 700) + ",\"ok\":true}");
            }
        }
        given().contentType("application/x-ndjson").body((String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8))
                .post(url(Service.SLO, "/api/v1/ingest/latency")).then().statusCode(200);
        given().contentType("application/json").body("""
                {"name":"chat-ttft-e2e","selector":{"service":"chat","namespace":"ml"},"sli":"TTFT",
                 "objective":{"percentile":99,"thresholdMs":300,"per":"MINUTE"},"target":0.99,"window":"P30D"}""")
                .post(url(Service.SLO, "/api/v1/slos")).then().statusCode(201);
    }

    private static String pod(String ns, String name, String ownerKind, String owner, String scheduled, String rv) {
        String alloc = "GPU-J1,NVIDIA,8192,50:;";
        return "{\"type\":\"MODIFIED\",\"object\":{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"" + name
                + "\",\"namespace\":\"" + ns + "\",\"uid\":\"pod-" + name + "\",\"resourceVersion\":\"" + rv
                + "\",\"creationTimestamp\":\"" + scheduled + "\",\"ownerReferences\":[{\"apiVersion\":\"v1\",\"kind\":\""
                + ownerKind + "\",\"name\":\"" + owner + "\",\"uid\":\"own-" + name + "\",\"controller\":true}],"
                + "\"annotations\":{\"hami.io/vgpu-devices-allocated\":\"" + alloc + "\",\"hami.io/vgpu-devices-to-allocate\":\";\","
                + "\"hami.io/vgpu-node\":\"gpu-j\",\"hami.io/bind-phase\":\"success\"}},"
                + "\"spec\":{\"schedulerName\":\"hami-scheduler\",\"nodeName\":\"gpu-j\",\"containers\":[{\"name\":\"main\","
                + "\"resources\":{\"limits\":{\"nvidia.com/gpu\":\"1\",\"nvidia.com/gpumem\":\"8192\",\"nvidia.com/gpucores\":\"50\"}}}]},"
                + "\"status\":{\"phase\":\"Running\",\"conditions\":[{\"type\":\"PodScheduled\",\"status\":\"True\","
                + "\"lastTransitionTime\":\"" + scheduled + "\"}]}}}";
    }

    @Test
    void theJitterEventNamesTheNeighbourThatArrivedWithTheCardsCurveAroundIt() {
        JsonPath detected = given().queryParam("from", FROM).queryParam("to", TO)
                .post(url(Service.SLO, "/api/v1/jitter-events/detections")).then().statusCode(200).extract().jsonPath();
        assertEquals(1, detected.getList("events").size(), detected.prettify());
        long id = detected.getLong("events[0].id");
        JsonPath e = given().get(url(Service.SLO, "/api/v1/jitter-events/" + id)).then().statusCode(200).extract().jsonPath();
        assertEquals("2026-06-02T10:10:00Z", e.getString("start"));
        assertEquals("2026-06-02T10:20:00Z", e.getString("end"));
        assertEquals(List.of("GPU-J1"), e.getList("pods[0].gpus.gpuUuid"));
        assertEquals(List.of("train-9"), e.getList("neighbours.pod"), e.prettify());
        assertEquals("training", e.getString("neighbours[0].kind"));
        assertEquals("research/train-9", e.getString("suspects[0].key"));
        assertEquals(1.0, e.getDouble("suspects[0].arrival"), 1e-9);
        List<String> minutes = e.getList("neighbours[0].curves.DRAM_ACTIVE.points.minute");
        assertEquals("2026-06-02T10:00:00Z", minutes.get(0));
        assertEquals("2026-06-02T10:29:00Z", minutes.get(minutes.size() - 1));
        assertEquals(0.8, e.getDouble("neighbours[0].curves.DRAM_ACTIVE.points.find { it.minute == '2026-06-02T10:10:00Z' }.mean"), 1e-9);
        assertEquals(List.of(), e.getList("gaps"));
    }

    @Test
    void theInterferenceFactorComesFromTheKnownSamples() {
        JsonPath r = given().queryParam("service", "chat").queryParam("from", FROM).queryParam("to", "2026-06-02T10:20:00Z")
                .get(url(Service.SLO, "/api/v1/interference")).then().statusCode(200).extract().jsonPath();
        assertEquals(0, r.getInt("unplacedPodMinutes"), r.prettify());
        assertEquals(10, r.getInt("byNeighbours[0].podMinutes"));
        assertEquals(10, r.getInt("byNeighbours[1].podMinutes"));
        assertEquals(100.0, r.getDouble("byNeighbours[0].p99Ms"), 0.1);
        assertEquals(700.0, r.getDouble("byNeighbours[1].p99Ms"), 0.7);
        assertEquals(7.0, r.getDouble("byNeighbours[1].ifLatency"), 0.02);
        assertEquals(1.0, r.getDouble("byNeighbours[1].ifThroughput"), 1e-9);
        assertEquals(10, r.getInt("byKind.find { it.bucket == 'training' }.podMinutes"));
    }
}
