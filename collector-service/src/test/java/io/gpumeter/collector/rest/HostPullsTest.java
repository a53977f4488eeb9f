package io.gpumeter.collector.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import io.gpumeter.collector.host.GpuPlaces;
import io.gpumeter.collector.service.HostPulls;
import io.gpumeter.collector.testing.LedgerStandIn;
import io.gpumeter.common.testing.StandIn;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The collector's own host pulls: a kubelet and a node-exporter it scrapes, and a Prometheus it queries. */
@QuarkusTest
@WithTestResource(LedgerStandIn.class)
@WithTestResource(HostPullsTest.Sources.class)
class HostPullsTest {

    static final long T0 = 1_782_468_000_000L;

    /**
     * A kubelet that checks the bearer token, a node-exporter, and a Prometheus range API on one stand-in; the kubelet
     * and the exporter answer each scrape 30 s later than the one before, their counters 2 s of CPU (the kubelet's two
     * containers), 5 s of I/O stall and 25 s idle on.
     */
    public static class Sources implements QuarkusTestResourceLifecycleManager {
        static final String KUBELET = "/kubelet/metrics/cadvisor";
        static final String PROMETHEUS = "/api/v1/query_range";
        static StandIn standIn;

        @Override
        public Map<String, String> start() {
            Path token;
            try {
                token = Files.createTempFile("kubelet-token", "");
                Files.writeString(token, "sa-token-1\n");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            standIn = StandIn.start();
            standIn.answer(get(urlPathEqualTo(KUBELET)), aResponse().withStatus(401).withBody("Unauthorized"));
            for (int n = 0; n < 3; n++) {
                long at = T0 + 30_000L * n;
                standIn.answer(scrape("kubelet", KUBELET, n).withHeader("Authorization", equalTo("Bearer sa-token-1")),
                        text("container_cpu_usage_seconds_total{container=\"main\",cpu=\"total\",id=\"/k/c\","
                                + "namespace=\"ml\",pod=\"train-k\"} " + (100 + 2 * n) + " " + at + "\n"
                                + "container_cpu_usage_seconds_total{container=\"app\",cpu=\"total\",id=\"/k/o\","
                                + "namespace=\"web\",pod=\"other\"} " + (100 + 2 * n) + " " + at + "\n"));
                standIn.answer(scrape("node-exporter", "/node/metrics", n), text(
                        "node_pressure_io_stalled_seconds_total " + (5 * n) + " " + at + "\n"
                        + "node_cpu_seconds_total{cpu=\"0\",mode=\"idle\"} " + (1000 + 25 * n) + " " + at + "\n"));
            }
            long s = T0 / 1000;
            String points = "[[" + s + ",\"10\"],[" + (s + 30) + ",\"13\"],[" + (s + 60) + ",\"16\"]]";
            standIn.answer(post(urlPathEqualTo(PROMETHEUS)), """
                    {"status":"success","data":{"resultType":"matrix","result":[
                     {"metric":{"__name__":"node_pressure_io_stalled_seconds_total","instance":"gpu-p:9100"},
                      "values":%s}]}}""".formatted(points));
            standIn.answer(post(urlPathEqualTo(PROMETHEUS)).atPriority(1).withRequestBody(containing("container_")), """
                    {"status":"success","data":{"resultType":"matrix","result":[
                     {"metric":{"__name__":"container_cpu_usage_seconds_total","container":"main","cpu":"total",
                      "id":"/k/p","namespace":"ml","pod":"train-p","node":"gpu-p","instance":"10.0.0.9:10250"},
                      "values":%s}]}}""".formatted(points));
            String base = standIn.url();
            return Map.of("gpumeter.collector.host.kubelet.targets.gpu-k", base + KUBELET,
                    "gpumeter.collector.host.kubelet.token-file", token.toString(),
                    "gpumeter.collector.host.node-exporter.targets.gpu-k", base + "/node/metrics",
                    "gpumeter.collector.prometheus.url", base,
                    "gpumeter.collector.host.prometheus.interval", "60s",
                    // The test drives each round itself; scheduled rounds would race it.
                    "quarkus.scheduler.enabled", "false");
        }

        /** Scrape {@code n} (from 0) of a source: answered once, then the next one's answer is up. */
        private static MappingBuilder scrape(String source, String path, int n) {
            return get(urlPathEqualTo(path)).atPriority(1).inScenario(source)
                    .whenScenarioStateIs(n == 0 ? Scenario.STARTED : "scrape " + n).willSetStateTo("scrape " + (n + 1));
        }

        private static ResponseDefinitionBuilder text(String body) {
            return aResponse().withStatus(200).withHeader("Content-Type", "text/plain; version=0.0.4").withBody(body);
        }

        /** The Prometheus queries asked, each form decoded. */
        static String queries() {
            return standIn.calls(postRequestedFor(urlPathEqualTo(PROMETHEUS))).stream()
                    .map(r -> URLDecoder.decode(r.getBodyAsString(), StandardCharsets.UTF_8) + "\n")
                    .collect(Collectors.joining());
        }

        @Override
        public void stop() {
            standIn.close();
        }
    }

    @Inject
    HostPulls pulls;
    @Inject
    GpuPlaces places;

    @BeforeEach
    void reset() {
        LedgerStandIn.reset();
        places.usage("default", "gpu-k", "ml", "train-k");
        places.usage("default", "gpu-p", "ml", "train-p");
    }

    private static List<JsonNode> rows(String kind) {
        return LedgerStandIn.hostMinutes().stream().flatMap(b -> b.path(kind).valueStream()).toList();
    }

    @Test
    void aKubeletIsScrapedWithTheServiceAccountsTokenAndANodeExporterBesideIt() {
        for (int i = 0; i < 3; i++) {
            assertEquals(1, pulls.scrapeKubelets());
            assertEquals(1, pulls.scrapeNodeExporters());
        }
        List<LoggedRequest> scrapes = Sources.standIn.calls(getRequestedFor(urlPathEqualTo(Sources.KUBELET)));
        assertEquals(List.of("Bearer sa-token-1"), scrapes.stream().map(r -> r.getHeader("Authorization")).distinct()
                .toList());
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
        String queries = Sources.queries();
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
