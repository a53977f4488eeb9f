package io.gpumeter.collector.rest;

import io.gpumeter.collector.testing.LedgerStandIn;
import io.gpumeter.common.testing.Management;
import io.gpumeter.common.testing.Fuzz;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import static io.gpumeter.collector.rest.KubernetesIngestResourceTest.NAMESPACE;
import static io.gpumeter.collector.rest.KubernetesIngestResourceTest.pod;
import static io.gpumeter.collector.rest.UsageIngestResourceTest.fixture;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Thousands of seeded hostile variants of real inputs against every collector parser, over HTTP: each answer is
 * 2xx, or 4xx with a problem document; a refused body forwards nothing; the service stays ready throughout.
 */
@QuarkusTest
@WithTestResource(LedgerStandIn.class)
class CollectorFuzzTest {

    static final int CASES = Fuzz.cases();

    /** A pod whose HAMi annotations are what the mutations hit most. */
    static final String HAMI_POD = "{\"type\":\"MODIFIED\",\"object\":{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":"
            + "{\"name\":\"h\",\"namespace\":\"ml\",\"uid\":\"h1\",\"resourceVersion\":\"7\",\"annotations\":{"
            + "\"hami.io/vgpu-devices-allocated\":\"GPU-aaaa,NVIDIA,8192,30:;\","
            + "\"hami.io/vgpu-node\":\"n1\",\"hami.io/bind-phase\":\"success\"}},"
            + "\"spec\":{\"nodeName\":\"n1\",\"schedulerName\":\"hami-scheduler\",\"containers\":[{\"name\":\"a\","
            + "\"resources\":{\"limits\":{\"nvidia.com/gpu\":\"1\",\"nvidia.com/gpumem\":\"8192\",\"nvidia.com/gpucores\":\"30\"}}}]},"
            + "\"status\":{\"conditions\":[{\"type\":\"PodScheduled\",\"status\":\"True\","
            + "\"lastTransitionTime\":\"2026-05-01T00:00:00Z\"}]}}}";

    @BeforeEach
    void reset() {
        LedgerStandIn.answerAgain();
    }

    @Test
    void prometheusTextFromDcgmExporter() throws IOException {
        fuzz("dcgm", "/api/v1/ingest/dcgm", "text/plain", 11L,
                List.of(fixture("dcgm-exporter-scrape-a100-mig-1g5gb.prom"), fixture("dcgm-exporter-scrape-l40s-k8s-pod-labels.prom")));
    }

    @Test
    void prometheusTextFromHamiMonitor() throws IOException {
        fuzz("hami", "/api/v1/ingest/hami-monitor", "text/plain", 12L,
                List.of(fixture("hami-vgpu-monitor-9394-scrape.prom"), fixture("hami-vgpu-monitor-9394-legacy-scrape.prom")));
    }

    @Test
    void nvidiaSmiCsvAndPmon() {
        fuzz("nvidia-smi csv", "/api/v1/ingest/nvidia-smi", "text/csv", 13L, List.of(
                "timestamp, uuid, utilization.gpu [%], memory.used [MiB], power.draw [W]\n"
                        + "2026/07/03 22:22:01.444, GPU-N1, 37 %, 1024 MiB, 250.5 W\n"
                        + "2026/07/03 22:22:01.444, GPU-N2, [N/A], [Not Supported], 80 W\n",
                "timestamp, gpu_uuid, pid, used_memory [MiB]\n2026/07/03 22:22:01.444, GPU-N1, 4242, 1024 MiB\n"));
        fuzz("nvidia-smi pmon", "/api/v1/ingest/nvidia-smi", "text/plain", 14L, List.of(
                "# gpu         pid   type     sm    mem    enc    dec    jpg    ofa    command\n"
                        + "# Idx           #    C/G      %      %      %      %      %      %    name\n"
                        + "    0       4242     C     45     20      -      -      -      -    python\n"
                        + "    1          -     -      -      -      -      -      -      -    -\n"));
    }

    @Test
    void kubernetesWatchEventsAndHamiAnnotations() {
        fuzz("watch ndjson", "/api/v1/ingest/kubernetes", "application/x-ndjson", 15L, List.of(
                String.join("\n", NAMESPACE, pod("u1", "10", ""), HAMI_POD) + "\n", HAMI_POD + "\n"));
    }

    @Test
    void hostSeriesFromKubeletsAndNodeExporters() {
        String kubelet = io.gpumeter.collector.host.HostFixtures.text("kubelet-1.35-containerd-metrics-cadvisor.prom");
        fuzz("cadvisor", "/api/v1/ingest/cadvisor", "text/plain", 18L, List.of(
                kubelet.substring(0, kubelet.indexOf('\n', 20_000) + 1),
                io.gpumeter.collector.host.HostFixtures.text("kubelet-1.15-docker-metrics-cadvisor.prom").substring(0, 12_000)
                        .replaceFirst("\n[^\n]*$", "\n")));
        fuzz("node-exporter", "/api/v1/ingest/node-exporter", "text/plain", 19L, List.of(
                io.gpumeter.collector.host.HostFixtures.text("node-exporter-1.5.0-debian12-scrape-1.prom"),
                "node_pressure_io_stalled_seconds_total 12.5\nnode_network_receive_drop_total{device=\"eth0\"} 3\n"));
    }

    @Test
    void kernelAndContainerLogs() {
        fuzz("kmsg", "/api/v1/ingest/kmsg?node=n1", "text/plain", 16L, List.of(
                "[  123.456789] NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, name=python, GPU has fallen off the bus.\n"
                        + "[  124.000000] NVRM: Xid (PCI:0000:3b:00): 119, pid=0, name=, Timeout waiting for RPC from GSP!\n"));
        fuzz("container log", "/api/v1/ingest/container-log?namespace=ml&pod=llm-0&container=main", "text/plain", 17L,
                List.of("2026-05-01T10:00:00.123456789Z step 10 loss 1.2\n"
                        + "2026-05-01T10:00:05Z CUDA out of memory. Tried to allocate 2.00 GiB\n"
                        + "2026-05-01T10:00:06Z NCCL WARN Net : Connection closed by remote peer\n"));
    }

    private void fuzz(String parser, String path, String contentType, long seed, List<String> inputs) {
        Map<Integer, Integer> statuses = new Fuzz(seed, inputs).overHttp(parser, CASES, body -> {
            var request = given().contentType(contentType).body(body);
            if (!path.contains("?")) {
                request.queryParam("node", "fuzz-node");
            }
            Response r = request.post(path);
            return new Fuzz.Answer(r.statusCode(), r.contentType(), r.asString());
        }, CollectorFuzzTest::forwarded);
        Management.given().get("/q/health/live").then().statusCode(200);
        assertEquals(CASES, statuses.values().stream().mapToInt(Integer::intValue).sum());
        assertTrue(statuses.getOrDefault(200, 0) > 0, parser + ": the valid seeds are accepted");
    }

    private static int forwarded() {
        return LedgerStandIn.metering().size() + LedgerStandIn.usage().size() + LedgerStandIn.governance().size()
                + LedgerStandIn.livePods().size();
    }
}
