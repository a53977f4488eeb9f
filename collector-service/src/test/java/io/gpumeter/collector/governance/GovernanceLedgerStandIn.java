package io.gpumeter.collector.governance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
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
 * A stand-in for both of ledger-service's fact intakes, the metering one and the governance one, each recording
 * what it is sent and each able to fail on its own.
 */
public class GovernanceLedgerStandIn implements QuarkusTestResourceLifecycleManager {

    static final List<JsonNode> METERING = new CopyOnWriteArrayList<>();
    static final List<JsonNode> GOVERNANCE = new CopyOnWriteArrayList<>();
    static final AtomicInteger METERING_STATUS = new AtomicInteger(200);
    static final AtomicInteger GOVERNANCE_STATUS = new AtomicInteger(200);

    private static final ObjectMapper JSON = new ObjectMapper();
    private HttpServer server;

    @Override
    public Map<String, String> start() {
        try {
            server = HttpServer.create(new InetSocketAddress("localhost", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/api/v1/facts/bundles", GovernanceLedgerStandIn::bundle);
        server.createContext("/api/v1/facts/governance", exchange -> answer(exchange, GOVERNANCE, GOVERNANCE_STATUS.get()));
        server.createContext("/api/v1/facts", exchange -> answer(exchange, METERING, METERING_STATUS.get()));
        server.start();
        return Map.of("quarkus.rest-client.ledger.url", "http://localhost:" + server.getAddress().getPort());
    }

    /** Both halves in one request: stored together when both intakes would take them, else neither. */
    private static void bundle(HttpExchange exchange) throws IOException {
        JsonNode bundle = WholeBundles.read(exchange.getRequestBody().readAllBytes());
        int status = METERING_STATUS.get() != 200 ? METERING_STATUS.get() : GOVERNANCE_STATUS.get();
        byte[] reply;
        if (status == 200) {
            int metering = record(bundle.path("facts"), METERING);
            int governed = record(bundle.path("governance"), GOVERNANCE);
            reply = ("{\"facts\":{\"accepted\":" + metering + ",\"duplicates\":0},\"governance\":{\"accepted\":"
                    + governed + ",\"duplicates\":0}}").getBytes(StandardCharsets.UTF_8);
        } else {
            reply = ("{\"status\":" + status + "}").getBytes(StandardCharsets.UTF_8);
        }
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, reply.length);
        exchange.getResponseBody().write(reply);
        exchange.close();
    }

    private static int record(JsonNode half, List<JsonNode> into) {
        if (half.isMissingNode() || half.isNull()) {
            return 0;
        }
        into.add(half);
        return count(half);
    }

    private static int count(JsonNode batch) {
        int facts = 0;
        for (JsonNode list : batch) {
            facts += list.isArray() ? list.size() : 0;
        }
        return facts;
    }

    private static void answer(HttpExchange exchange, List<JsonNode> into, int status) throws IOException {
        JsonNode batch = JSON.readTree(exchange.getRequestBody());
        byte[] reply;
        if (status == 200) {
            into.add(batch);
            int facts = count(batch);
            reply = ("{\"accepted\":" + facts + ",\"duplicates\":0}").getBytes(StandardCharsets.UTF_8);
        } else {
            reply = "{\"status\":500}".getBytes(StandardCharsets.UTF_8);
        }
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, reply.length);
        exchange.getResponseBody().write(reply);
        exchange.close();
    }

    @Override
    public void stop() {
        server.stop(0);
    }

    static void reset() {
        METERING.clear();
        GOVERNANCE.clear();
        METERING_STATUS.set(200);
        GOVERNANCE_STATUS.set(200);
    }

    static List<JsonNode> governance(String list) {
        return GOVERNANCE.stream().flatMap(b -> b.path(list).valueStream()).toList();
    }
}
