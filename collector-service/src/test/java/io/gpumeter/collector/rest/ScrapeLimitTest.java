package io.gpumeter.collector.rest;

import io.gpumeter.common.testing.Management;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.gpumeter.collector.service.UsagePulls;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An exporter and a Prometheus that answer without end: the collector refuses each answer once it passes the
 * configured size, without reading the rest, counts the refusal, and stays healthy.
 */
@QuarkusTest
@WithTestResource(FakeLedger.class)
@WithTestResource(ScrapeLimitTest.Endless.class)
class ScrapeLimitTest {

    static final long LIMIT = 64 * 1024;
    /** What each endless answer would send if it were read to its end. */
    static final long ENDLESS = 1L << 30;

    /** An exporter streaming a metrics page of a GiB, a Prometheus declaring one, bytes written counted. */
    public static class Endless implements QuarkusTestResourceLifecycleManager {
        static final AtomicLong WRITTEN = new AtomicLong();
        private HttpServer server;

        @Override
        public Map<String, String> start() {
            try {
                server = HttpServer.create(new InetSocketAddress("localhost", 0), 0);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            server.createContext("/metrics", Endless::stream);
            // Declared too large, then sent for as long as the reader stays: refused before a byte is read. Closing
            // right after the headers raced the client, which could see the connection end before it saw the length.
            server.createContext("/api/v1/query_range", exchange -> {
                exchange.sendResponseHeaders(200, ENDLESS);
                try (OutputStream out = exchange.getResponseBody()) {
                    byte[] chunk = new byte[64 * 1024];
                    Arrays.fill(chunk, (byte) ' ');
                    for (long sent = 0; sent < ENDLESS; sent += chunk.length) {
                        out.write(chunk);
                    }
                } catch (IOException e) {
                    // the collector hung up: what we wanted
                } finally {
                    exchange.close();
                }
            });
            server.start();
            String base = "http://localhost:" + server.getAddress().getPort();
            return Map.of("gpumeter.collector.dcgm.targets.gpu-endless", base + "/metrics",
                    "gpumeter.collector.dcgm.max-body", String.valueOf(LIMIT),
                    "gpumeter.collector.prometheus.url", base,
                    "gpumeter.collector.prometheus.max-body", String.valueOf(LIMIT),
                    "quarkus.scheduler.enabled", "false");
        }

        /** Valid Prometheus text, chunked, until the reader hangs up or a GiB is out. */
        private static void stream(HttpExchange exchange) throws IOException {
            byte[] line = "DCGM_FI_PROF_SM_ACTIVE{gpu=\"0\",UUID=\"GPU-ENDLESS\"} 0.5\n".getBytes();
            byte[] chunk = new byte[64 * 1024];
            for (int i = 0; i + line.length <= chunk.length; i += line.length) {
                System.arraycopy(line, 0, chunk, i, line.length);
            }
            Arrays.fill(chunk, chunk.length - chunk.length % line.length, chunk.length, (byte) '\n');
            exchange.sendResponseHeaders(200, 0);
            try (OutputStream out = exchange.getResponseBody()) {
                for (long sent = 0; sent < ENDLESS; sent += chunk.length) {
                    out.write(chunk);
                    WRITTEN.addAndGet(chunk.length);
                }
            } catch (IOException e) {
                // the collector hung up: what we wanted
            } finally {
                exchange.close();
            }
        }

        @Override
        public void stop() {
            server.stop(0);
        }
    }

    @Inject
    UsagePulls pulls;

    @Inject
    MeterRegistry metrics;

    @Test
    void anEndlessExporterIsRefusedWithoutBeingReadToItsEnd() throws InterruptedException {
        FakeLedger.USAGE.clear();
        assertEquals(0, pulls.scrapeExporters());
        Thread.sleep(500); // let the exporter notice the hang-up
        long written = Endless.WRITTEN.get();
        assertTrue(written < 64L * 1024 * 1024, "the exporter wrote " + written + " bytes of " + ENDLESS);
        assertEquals(0, FakeLedger.USAGE.size(), "nothing of a refused page is stored");
        assertEquals(1.0, refused("dcgm"));
        Management.given().get("/q/health/live").then().statusCode(200);
    }

    @Test
    void aPrometheusAnswerDeclaredTooLargeIsRefused() {
        assertEquals(0, pulls.pullPrometheus(Instant.parse("2026-07-01T10:05:00Z")));
        assertEquals(1.0, refused("prometheus"));
        Management.given().get("/q/health/live").then().statusCode(200);
    }

    private double refused(String source) {
        var counter = metrics.find("gpumeter.collector.scrape.refused").tag("source", source).counter();
        return counter == null ? 0 : counter.count();
    }
}
