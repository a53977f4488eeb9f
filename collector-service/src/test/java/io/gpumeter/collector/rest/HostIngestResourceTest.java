package io.gpumeter.collector.rest;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpumeter.collector.host.GpuPlaces;
import io.gpumeter.collector.host.HostFixtures;
import io.gpumeter.collector.testing.LedgerStandIn;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@QuarkusTest
@WithTestResource(LedgerStandIn.class)
class HostIngestResourceTest {

    /** A whole minute, in the past as pushed series often are. */
    private static final long T0 = 1_782_468_000_000L;

    @Inject
    GpuPlaces places;

    @BeforeEach
    void reset() {
        LedgerStandIn.reset();
    }

    /** One cgroup of a GPU pod and one of another pod, at {@code at}, as a kubelet prints them. */
    private static String cadvisor(String pod, long at, double cpu, double throttled) {
        String c = "container=\"main\",id=\"/kubepods/pod-" + pod + "/c1\",image=\"img\",name=\"c1\",namespace=\"ml\",pod=\"" + pod + "\"";
        String sandbox = "container=\"\",id=\"/kubepods/pod-" + pod + "/s1\",image=\"pause\",interface=\"eth0\",name=\"s1\","
                + "namespace=\"ml\",pod=\"" + pod + "\"";
        return "# TYPE container_cpu_usage_seconds_total counter\n"
                + "container_cpu_usage_seconds_total{" + c + ",cpu=\"total\"} " + cpu + " " + at + "\n"
                + "container_cpu_usage_seconds_total{" + c.replace(pod, "web-1") + ",cpu=\"total\"} 50 " + at + "\n"
                + "container_cpu_cfs_periods_total{" + c + "} " + (throttled * 4) + " " + at + "\n"
                + "container_cpu_cfs_throttled_periods_total{" + c + "} " + throttled + " " + at + "\n"
                + "container_spec_cpu_quota{" + c + "} 200000\n"
                + "container_spec_cpu_period{" + c + "} 100000\n"
                + "container_network_receive_bytes_total{" + sandbox + "} " + (cpu * 1000) + " " + at + "\n";
    }

    private static void push(String body, String node) {
        given().contentType("text/plain").body(body).queryParam("node", node).post("/api/v1/ingest/cadvisor").then()
                .statusCode(200);
    }

    private static List<JsonNode> containers() {
        return LedgerStandIn.hostMinutes().stream().flatMap(b -> b.path("containers").valueStream()).toList();
    }

    @Test
    void aGpuPodsContainerAndPodArePerMinuteIncreasesAndOtherPodsAreLeftOut() {
        places.usage("default", "gpu-1", "ml", "train-0");
        push(cadvisor("train-0", T0, 100, 10), "gpu-1");
        push(cadvisor("train-0", T0 + 30_000, 103, 12), "gpu-1");
        given().contentType("text/plain").body(cadvisor("train-0", T0 + 60_000, 106, 20)).queryParam("node", "gpu-1")
                .post("/api/v1/ingest/cadvisor").then().statusCode(200).body("kept", equalTo(6))
                .body("other", equalTo(1)).body("minutes", equalTo(2)).body("buffered", equalTo(false));
        JsonNode main = containers().stream().filter(c -> c.path("container").asText().equals("main")).findFirst().orElseThrow();
        assertEquals("gpu-1", main.path("node").asText());
        assertEquals("2026-06-26T10:00:00Z", main.path("minute").asText());
        assertEquals(6.0, main.path("cpuSeconds").asDouble(), 1e-9);
        assertEquals(10.0, main.path("cfsThrottledPeriods").asDouble(), 1e-9);
        assertEquals(40.0, main.path("cfsPeriods").asDouble(), 1e-9);
        assertEquals(2.0, main.path("cpuLimitCores").asDouble(), 1e-9);
        assertEquals(60_000, main.path("coveredMs").asInt());
        assertTrue(main.path("netReceiveBytes").isNull(), "a container has no network of its own");
        JsonNode pod = containers().stream().filter(c -> c.path("container").asText().isEmpty()).findFirst().orElseThrow();
        assertEquals(6000.0, pod.path("netReceiveBytes").asDouble(), 1e-9, "the sandbox's network is the pod's");
        assertTrue(containers().stream().noneMatch(c -> c.path("pod").asText().equals("web-1")));
    }

    @Test
    void aReplayedGpuPodAndItsNodeAreKeptAndAPodAskingForNoGpuIsNot() {
        String gpuPod = "{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":"
                + "{\"name\":\"replayed-0\",\"namespace\":\"ml\",\"uid\":\"r0\",\"resourceVersion\":\"7\"},"
                + "\"spec\":{\"nodeName\":\"gpu-r\",\"containers\":[{\"name\":\"main\",\"resources\":{\"limits\":"
                + "{\"nvidia.com/gpu\":\"1\"}}}]}}}";
        String cpuPod = gpuPod.replace("replayed-0", "cpu-only-0").replace("\"uid\":\"r0\"", "\"uid\":\"c0\"")
                .replace("{\"nvidia.com/gpu\":\"1\"}", "{\"cpu\":\"1\"}");
        byte[] replay = (gpuPod + "\n" + cpuPod + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8);
        given().contentType("application/x-ndjson").body(replay).queryParam("cluster", "default")
                .post("/api/v1/ingest/kubernetes").then().statusCode(200);
        String body = "container_cpu_usage_seconds_total{container=\"main\",id=\"/r\",namespace=\"ml\",pod=\"replayed-0\"} 1 " + T0
                + "\ncontainer_cpu_usage_seconds_total{container=\"main\",id=\"/c\",namespace=\"ml\",pod=\"cpu-only-0\"} 1 " + T0 + "\n";
        given().contentType("text/plain").body(body).queryParam("node", "gpu-r").post("/api/v1/ingest/cadvisor").then()
                .statusCode(200).body("kept", equalTo(1)).body("other", equalTo(1));
        given().contentType("text/plain").body("node_pressure_io_stalled_seconds_total 1\n").queryParam("node", "gpu-r")
                .post("/api/v1/ingest/node-exporter").then().statusCode(200).body("kept", equalTo(1));
    }

    @Test
    void aRealKubeletPageIsReadAndTheSamePageSentTwiceCountsOnce() {
        places.usage("default", "datagen-1-35", "scraper", "e2e-daemonset-kb65b");
        String page = HostFixtures.text("kubelet-1.35-containerd-metrics-cadvisor.prom");
        int kept = given().contentType("text/plain").body(page).queryParam("node", "datagen-1-35")
                .post("/api/v1/ingest/cadvisor").then().statusCode(200)
                .body("samples", equalTo(HostFixtures.samples("kubelet-1.35-containerd-metrics-cadvisor.prom").size()))
                .extract().path("kept");
        assertTrue(kept > 10, "the GPU pod's cgroups: " + kept);
        given().contentType("text/plain").body(page).queryParam("node", "datagen-1-35").post("/api/v1/ingest/cadvisor")
                .then().statusCode(200).body("minutes", equalTo(0));
        assertTrue(LedgerStandIn.hostMinutes().isEmpty(), "one scrape, or the same one twice, is no increase yet");
    }

    @Test
    void twoLiveNodeExporterScrapesGiveTheGpuNodesMinute() {
        places.usage("default", "gpu-ne", null, null);
        push2("node-exporter-1.5.0-debian12-scrape-1.prom", T0 + 15_000);
        push2("node-exporter-1.5.0-debian12-scrape-2.prom", T0 + 45_000);
        push2("node-exporter-1.5.0-debian12-scrape-2.prom", T0 + 75_000);
        JsonNode node = LedgerStandIn.hostMinutes().stream().flatMap(b -> b.path("nodes").valueStream()).findFirst().orElseThrow();
        assertEquals("gpu-ne", node.path("node").asText());
        assertEquals(45_000, node.path("coveredMs").asInt(), "from the first scrape at :15 to the minute's end");
        double rx1 = 3.86445736e+08;
        double rx2 = eth0Receive(HostFixtures.text("node-exporter-1.5.0-debian12-scrape-2.prom"));
        assertEquals(rx2 - rx1, node.path("netReceiveBytes").asDouble(), 1e-3, "eth0 only, between the two scrapes");
        assertTrue(node.path("cpus").asInt() >= 1);
        assertTrue(node.path("ioPressureStalledSeconds").isNumber());
        given().contentType("text/plain").body("node_pressure_io_stalled_seconds_total 1\n").queryParam("node", "cpu-only")
                .post("/api/v1/ingest/node-exporter").then().statusCode(200).body("kept", equalTo(0))
                .body("other", equalTo(1));
    }

    private static double eth0Receive(String page) {
        return Arrays.stream(page.split("\n")).filter(l -> l.startsWith("node_network_receive_bytes_total{device=\"eth0\"}"))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).findFirst().orElseThrow();
    }

    /** A real scrape (which stamps no sample) stamped as if taken at {@code at}. */
    private static void push2(String fixture, long at) {
        String stamped = Arrays.stream(HostFixtures.text(fixture).split("\n"))
                .map(l -> l.isBlank() || l.startsWith("#") ? l : l + " " + at).collect(Collectors.joining("\n"));
        given().contentType("text/plain").body(stamped).queryParam("node", "gpu-ne").post("/api/v1/ingest/node-exporter")
                .then().statusCode(200);
    }

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', value = {
            "1 | garbled line     | /api/v1/ingest/cadvisor?node=gpu-2      | container_cpu_usage_seconds_total{container=\"main\" 5 | line 2",
            "2 | negative counter | /api/v1/ingest/cadvisor?node=gpu-2      | container_cpu_cfs_periods_total{container=\"main\",namespace=\"ml\",pod=\"train-2\"} -4 | container_cpu_cfs_periods_total",
            "3 | missing node     | /api/v1/ingest/cadvisor                 | container_cpu_usage_seconds_total 1 | node",
            "4 | bad cluster      | /api/v1/ingest/cadvisor?node=gpu-2&cluster=Lab | container_cpu_usage_seconds_total 1 | cluster",
            "5 | node-exporter negative | /api/v1/ingest/node-exporter?node=gpu-2 | node_network_receive_drop_total{device=\"eth0\"} -1 | node_network_receive_drop_total",
    })
    void aBadBodyIsRefusedWholeNamingTheFieldAndLeavesNothingBehind(int hour, String name, String url, String bad,
                                                                    String field) {
        places.usage("default", "gpu-2", "ml", "train-2");
        long t0 = T0 + hour * 3_600_000L;
        String first = "container_cpu_usage_seconds_total{container=\"main\",id=\"/c\",namespace=\"ml\",pod=\"train-2\"} 500 " + t0;
        given().urlEncodingEnabled(false).contentType("text/plain").body(first + "\n" + bad + "\n").post(url).then()
                .statusCode(400).contentType("application/problem+json").body("field", equalTo(field));
        push(first.replace(" 500 ", " 100 "), "gpu-2");
        push(first.replace(" 500 ", " 106 ").replace(" " + t0, " " + (t0 + 60_000)), "gpu-2");
        JsonNode main = containers().stream().filter(c -> c.path("pod").asText().equals("train-2")).findFirst().orElseThrow();
        assertEquals(6.0, main.path("cpuSeconds").asDouble(), 1e-9,
                "the refused body's 500 was never taken: 100 to 106, not a reset to 106");
    }

    @Test
    void anUnknownMediaTypeAndABodyOverTheLimitAreRefusedAsProblems() {
        given().contentType("application/json").body("{}").queryParam("node", "n").post("/api/v1/ingest/cadvisor").then()
                .statusCode(415).contentType("application/problem+json");
        byte[] huge = new byte[64 * 1024 * 1024 + 1];
        Arrays.fill(huge, (byte) '\n');
        given().contentType("text/plain").body(huge).queryParam("node", "n").post("/api/v1/ingest/node-exporter").then()
                .statusCode(413).contentType("application/problem+json").body("field", equalTo("body"));
    }

    @Test
    void minutesTheLedgerDidNotTakeAreYieldedAgainWhenTheBodyIsSentAgain() {
        places.usage("default", "gpu-3", "ml", "train-3");
        push(cadvisor("train-3", T0, 100, 10), "gpu-3");
        LedgerStandIn.refuse(503);
        given().contentType("text/plain").body(cadvisor("train-3", T0 + 60_000, 109, 10)).queryParam("node", "gpu-3")
                .post("/api/v1/ingest/cadvisor").then().statusCode(503).contentType("application/problem+json")
                .body("detail", containsString("send it again"));
        LedgerStandIn.answerAgain();
        push(cadvisor("train-3", T0 + 60_000, 109, 10), "gpu-3");
        JsonNode main = containers().stream().filter(c -> c.path("container").asText().equals("main")).findFirst().orElseThrow();
        assertEquals(9.0, main.path("cpuSeconds").asDouble(), 1e-9);
    }
}
