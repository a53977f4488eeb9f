package io.gpumeter.collector.rest;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A stand-in for slo-service's latency and engine-gauge intakes that records every NDJSON body and can be told to
 * fail, and for a vLLM server whose /metrics text the test sets.
 */
public class FakeSlo implements QuarkusTestResourceLifecycleManager {

    static final List<String> BODIES = new CopyOnWriteArrayList<>();
    static final List<String> CONTENT_TYPES = new CopyOnWriteArrayList<>();
    /** Bodies the engine-gauge intake took. */
    static final List<String> GAUGE_BODIES = new CopyOnWriteArrayList<>();
    /** The status slo-service answers with. */
    static final AtomicInteger STATUS = new AtomicInteger(200);
    /** What the vLLM server's /metrics serves. */
    static final AtomicReference<String> METRICS = new AtomicReference<>("");

    private HttpServer server;

    @Override
    public Map<String, String> start() {
        try {
            server = HttpServer.create(new InetSocketAddress("localhost", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/api/v1/ingest/latency", exchange -> intake(exchange, BODIES));
        server.createContext("/api/v1/ingest/engine-gauges", exchange -> intake(exchange, GAUGE_BODIES));
        server.createContext("/vllm/metrics", exchange -> {
            byte[] reply = METRICS.get().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
            exchange.sendResponseHeaders(200, reply.length);
            exchange.getResponseBody().write(reply);
            exchange.close();
        });
        server.start();
        String base = "http://localhost:" + server.getAddress().getPort();
        return Map.of("quarkus.rest-client.slo.url", base,
                "gpumeter.collector.vllm.targets.\"ml/chat-0\"", base + "/vllm/metrics",
                // where a discovered pod at 127.0.0.1 serves its metrics, for the tests that discover
                "gpumeter.collector.vllm.port", Integer.toString(server.getAddress().getPort()),
                "gpumeter.collector.vllm.path", "/vllm/metrics",
                // the tests drive each round themselves; a timed round would move the baseline under them
                "gpumeter.collector.vllm.scrape-interval", "off");
    }

    /** Answers as slo-service does when {@link #STATUS} is 200, else with that status and a problem. */
    private static void intake(HttpExchange exchange, List<String> bodies) throws IOException {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        int status = STATUS.get();
        byte[] reply;
        if (status == 200) {
            bodies.add(body);
            CONTENT_TYPES.add(exchange.getRequestHeaders().getFirst("Content-Type"));
            long lines = body.lines().filter(l -> !l.isBlank()).count();
            reply = ("{\"records\":" + lines + ",\"stored\":" + lines + ",\"duplicate\":false,\"digest\":\"x\"}")
                    .getBytes(StandardCharsets.UTF_8);
        } else {
            reply = ("{\"status\":" + status + ",\"field\":\"ts\"}").getBytes(StandardCharsets.UTF_8);
        }
        exchange.getResponseHeaders().add("Content-Type", status == 200 ? "application/json" : "application/problem+json");
        exchange.sendResponseHeaders(status, reply.length);
        exchange.getResponseBody().write(reply);
        exchange.close();
    }

    @Override
    public void stop() {
        server.stop(0);
    }
}
