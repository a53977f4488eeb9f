package io.gpumeter.collector.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.gpumeter.collector.host.GpuPlaces;
import io.gpumeter.collector.service.HostPulls;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The collector's own host pulls: a kubelet and a node-exporter it scrapes, and a Prometheus it queries. */
@QuarkusTest
@WithTestResource(FakeLedger.class)
@WithTestResource(HostPullsTest.Sources.class)
class HostPullsTest {

    static final long T0 = 1_782_468_000_000L;

    /** A kubelet that checks the bearer token, a node-exporter, and a Prometheus range API, each 30 s later per call. */
    public static class Sources implements QuarkusTestResourceLifecycleManager {
        static final AtomicReference<String> KUBELET_AUTH = new AtomicReference<>();
        static final AtomicReference<String> QUERIES = new AtomicReference<>("");
        static final AtomicInteger KUBELET_CALLS = new AtomicInteger();
        static final AtomicInteger EXPORTER_CALLS = new AtomicInteger();
        private HttpServer server;

        @Override
        public Map<String, String> start() {
            Path token;
            try {
                server = HttpServer.create(new InetSocketAddress("localhost", 0), 0);
                token = Files.createTempFile("kubelet-token", "");
                Files.writeString(token, "sa-token-1\n");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            server.createContext("/kubelet/metrics/cadvisor", exchange -> {
                KUBELET_AUTH.set(exchange.getRequestHeaders().getFirst("Authorization"));
                if (!"Bearer sa-token-1".equals(KUBELET_AUTH.get())) {
                    reply(exchange, 401, "Unauthorized");
                    return;
                }
                int n = KUBELET_CALLS.getAndIncrement();
                long at = T0 + 30_000L * n;
                reply(exchange, 200, "container_cpu_usage_seconds_total{container=\"main\",cpu=\"total\",id=\"/k/c\","
                        + "namespace=\"ml\",pod=\"train-k\"} " + (100 + 2 * n) + " " + at + "\n"
                        + "container_cpu_usage_seconds_total{container=\"app\",cpu=\"total\",id=\"/k/o\","
                        + "namespace=\"web\",pod=\"other\"} " + (100 + 2 * n) + " " + at + "\n");
            });
            server.createContext("/node/metrics", exchange -> {
                int n = EXPORTER_CALLS.getAndIncrement();
                long at = T0 + 30_000L * n;
                reply(exchange, 200, "node_pressure_io_stalled_seconds_total " + (5 * n) + " " + at + "\n"
                        + "node_cpu_seconds_total{cpu=\"0\",mode=\"idle\"} " + (1000 + 25 * n) + " " + at + "\n");
            });
            server.createContext("/api/v1/query_range", exchange -> {
                String form = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
                QUERIES.set(QUERIES.get() + URLDecoder.decode(form, StandardCharsets.UTF_8) + "\n");
                long s = T0 / 1000;
                String points = "[[" + s + ",\"10\"],[" + (s + 30) + ",\"13\"],[" + (s + 60) + ",\"16\"]]";
                reply(exchange, 200, form.contains("container_") ? """
                        {"status":"success","data":{"resultType":"matrix","result":[
                         {"metric":{"__name__":"container_cpu_usage_seconds_total","container":"main","cpu":"total",
                          "id":"/k/p","namespace":"ml","pod":"train-p","node":"gpu-p","instance":"10.0.0.9:10250"},
                          "values":%s}]}}""".formatted(points) : """
                        {"status":"success","data":{"resultType":"matrix","result":[
                         {"metric":{"__name__":"node_pressure_io_stalled_seconds_total","instance":"gpu-p:9100"},
                          "values":%s}]}}""".formatted(points));
            });
            server.start();
            String base = "http://localhost:" + server.getAddress().getPort();
            return Map.of("gpumeter.collector.host.kubelet.targets.gpu-k", base + "/kubelet/metrics/cadvisor",
                    "gpumeter.collector.host.kubelet.token-file", token.toString(),
                    "gpumeter.collector.host.node-exporter.targets.gpu-k", base + "/node/metrics",
                    "gpumeter.collector.prometheus.url", base,
                    "gpumeter.collector.host.prometheus.interval", "60s",
                    // The test drives each round itself; scheduled rounds would race it.
                    "quarkus.scheduler.enabled", "false");
        }

        private static void reply(HttpExchange exchange, int status, String body) throws IOException {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        }

        @Override
        public void stop() {
            server.stop(0);
        }
    }

    @Inject
    HostPulls pulls;
    @Inject
    GpuPlaces places;

    @BeforeEach
    void reset() {
        FakeLedger.HOST.clear();
        FakeLedger.STATUS.set(200);
        places.usage("default", "gpu-k", "ml", "train-k");
        places.usage("default", "gpu-p", "ml", "train-p");
    }

    private static List<JsonNode> rows(String kind) {
        return FakeLedger.HOST.stream().flatMap(b -> b.path(kind).valueStream()).toList();
    }

    @Test
    void aKubeletIsScrapedWithTheServiceAccountsTokenAndANodeExporterBesideIt() {
        for (int i = 0; i < 3; i++) {
            assertEquals(1, pulls.scrapeKubelets());
            assertEquals(1, pulls.scrapeNodeExporters());
        }
        assertEquals("Bearer sa-token-1", Sources.KUBELET_AUTH.get());
        List<JsonNode> containers = rows("containers");
        assertEquals(1, containers.size(), "the GPU pod's container only: " + containers);
        assertEquals("gpu-k", containers.get(0).path("node").asText());
        assertEquals(4.0, containers.get(0).path("cpuSeconds").asDouble(), 1e-9);
        JsonNode node = rows("nodes").get(0);
        assertEquals(10.0, node.path("ioPressureStalledSeconds").asDouble(), 1e-9);
        assertEquals(50.0, node.path("cpuIdleSeconds").asDouble(), 1e-9);
        assertEquals(1, node.path("cpus").asInt());
    }

    @Test
    void prometheusAsTheSourceNamesTheNodeByItsLabelsAndAsksForTheSeriesReadOnly() {
        assertTrue(pulls.pullPrometheus(Instant.ofEpochMilli(T0 + 120_000)) >= 6);
        String queries = Sources.QUERIES.get();
        assertTrue(queries.contains("container_cpu_cfs_throttled_periods_total") && queries.contains("namespace!=\"\""),
                queries);
        assertTrue(queries.contains("node_pressure_io_stalled_seconds_total"), queries);
        JsonNode container = rows("containers").stream().filter(c -> c.path("pod").asText().equals("train-p"))
                .findFirst().orElseThrow();
        assertEquals("gpu-p", container.path("node").asText());
        assertEquals(6.0, container.path("cpuSeconds").asDouble(), 1e-9);
        JsonNode node = rows("nodes").stream().filter(n -> n.path("node").asText().equals("gpu-p")).findFirst().orElseThrow();
        assertEquals(6.0, node.path("ioPressureStalledSeconds").asDouble(), 1e-9, "instance gpu-p:9100 is node gpu-p");
    }
}
