package io.gpumeter.collector.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.gpumeter.collector.testing.WholeBundles;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A stand-in for ledger-service's fact intake that records every batch it is sent and can be told to fail, so
 * the collector's delivery can be checked on its own.
 */
public class FakeLedger implements QuarkusTestResourceLifecycleManager {

    static final List<JsonNode> BATCHES = new CopyOnWriteArrayList<>();
    /** Governance batches, which go to their own intake and always succeed here. */
    static final List<JsonNode> GOVERNANCE = new CopyOnWriteArrayList<>();
    static final List<JsonNode> USAGE = new CopyOnWriteArrayList<>();
    static final List<JsonNode> LIVE_PODS = new CopyOnWriteArrayList<>();
    /** Host-minute batches the ledger took. */
    static final List<JsonNode> HOST = new CopyOnWriteArrayList<>();
    /** The Authorization header of each fact batch: the collector presents its service token. */
    static final List<String> AUTHORIZATIONS = new CopyOnWriteArrayList<>();
    /** Requests to the bundle intake, refused ones included: a retry shows as a second call. */
    static final AtomicInteger BUNDLE_CALLS = new AtomicInteger();
    /** Each bundle's declared Content-Length (null when sent chunked, without one) and the bytes that arrived. */
    static final List<String> BUNDLE_LENGTHS = new CopyOnWriteArrayList<>();
    static final List<Integer> BUNDLE_SIZES = new CopyOnWriteArrayList<>();
    /** The status to answer with; 200 accepts every fact. */
    static final AtomicInteger STATUS = new AtomicInteger(200);

    private static final ObjectMapper JSON = new ObjectMapper();
    private HttpServer server;

    @Override
    public Map<String, String> start() {
        try {
            server = HttpServer.create(new InetSocketAddress("localhost", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/api/v1/facts/governance", exchange -> {
            JsonNode batch = JSON.readTree(exchange.getRequestBody());
            GOVERNANCE.add(batch);
            byte[] reply = "{\"accepted\":0,\"duplicates\":0}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, reply.length);
            exchange.getResponseBody().write(reply);
            exchange.close();
        });
        server.createContext("/api/v1/facts", exchange -> {
            AUTHORIZATIONS.add(String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
            JsonNode batch = JSON.readTree(exchange.getRequestBody());
            int status = STATUS.get();
            byte[] reply;
            if (status == 200) {
                BATCHES.add(batch);
                int facts = batch.path("namespaces").size() + batch.path("nodes").size() + batch.path("pods").size();
                reply = ("{\"accepted\":" + facts + ",\"duplicates\":0}").getBytes(StandardCharsets.UTF_8);
            } else {
                reply = "{\"status\":500}".getBytes(StandardCharsets.UTF_8);
            }
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, reply.length);
            exchange.getResponseBody().write(reply);
            exchange.close();
        });
        server.createContext("/api/v1/facts/bundles", exchange -> {
            AUTHORIZATIONS.add(String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
            BUNDLE_CALLS.incrementAndGet();
            BUNDLE_LENGTHS.add(exchange.getRequestHeaders().getFirst("Content-Length"));
            byte[] body = exchange.getRequestBody().readAllBytes();
            BUNDLE_SIZES.add(body.length);
            JsonNode bundle = WholeBundles.read(body);
            int status = STATUS.get();
            byte[] reply;
            if (status == 200) {
                JsonNode facts = bundle.path("facts");
                int stored = facts.path("namespaces").size() + facts.path("nodes").size() + facts.path("pods").size();
                if (stored > 0) {
                    BATCHES.add(facts);
                }
                if (bundle.hasNonNull("governance")) {
                    GOVERNANCE.add(bundle.path("governance"));
                }
                reply = ("{\"facts\":{\"accepted\":" + stored + ",\"duplicates\":0},"
                        + "\"governance\":{\"accepted\":0,\"duplicates\":0}}").getBytes(StandardCharsets.UTF_8);
            } else {
                reply = ("{\"status\":" + status + "}").getBytes(StandardCharsets.UTF_8);
            }
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, reply.length);
            exchange.getResponseBody().write(reply);
            exchange.close();
        });
        server.createContext("/api/v1/facts/live-pods", exchange -> {
            LIVE_PODS.add(JSON.readTree(exchange.getRequestBody()));
            byte[] reply = "{\"accepted\":0,\"duplicates\":0}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, reply.length);
            exchange.getResponseBody().write(reply);
            exchange.close();
        });
        server.createContext("/api/v1/usage", exchange -> {
            JsonNode batch = JSON.readTree(exchange.getRequestBody());
            int status = STATUS.get();
            byte[] reply = "{\"status\":500}".getBytes(StandardCharsets.UTF_8);
            if (status == 200) {
                USAGE.add(batch);
                reply = ("{\"accepted\":" + batch.path("samples").size() + ",\"duplicates\":0,\"podsBound\":0}")
                        .getBytes(StandardCharsets.UTF_8);
            }
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, reply.length);
            exchange.getResponseBody().write(reply);
            exchange.close();
        });
        server.createContext("/api/v1/host/minutes", exchange -> {
            JsonNode batch = JSON.readTree(exchange.getRequestBody());
            int status = STATUS.get();
            byte[] reply = ("{\"status\":" + status + "}").getBytes(StandardCharsets.UTF_8);
            if (status == 200) {
                HOST.add(batch);
                reply = ("{\"stored\":" + (batch.path("containers").size() + batch.path("nodes").size())
                        + ",\"unchanged\":0}").getBytes(StandardCharsets.UTF_8);
            }
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, reply.length);
            exchange.getResponseBody().write(reply);
            exchange.close();
        });
        server.start();
        return Map.of("quarkus.rest-client.ledger.url", "http://localhost:" + server.getAddress().getPort());
    }

    @Override
    public void stop() {
        server.stop(0);
    }

    static List<JsonNode> pods() {
        return BATCHES.stream().flatMap(b -> b.path("pods").valueStream()).toList();
    }
}
