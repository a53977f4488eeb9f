package io.gpumeter.alert.rest;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

/**
 * A stand-in for ledger-service (and slo-service, billing-service, and a ticket receiver) on a free port: each path answers what the
 * test put there, everything else 404 — as a ledger without the failures endpoint, or an slo-service without an API.
 */
public class FakeLedger implements QuarkusTestResourceLifecycleManager {

    /** A canned answer. */
    public record Answer(int status, String body) {
    }

    static final Map<String, Answer> ROUTES = new ConcurrentHashMap<>();
    /** Bodies POSTed to /tickets, with their Authorization header first. */
    static final List<List<String>> TICKETS = new CopyOnWriteArrayList<>();

    private HttpServer server;

    @Override
    public Map<String, String> start() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.createContext("/", this::handle);
        server.start();
        String url = "http://127.0.0.1:" + server.getAddress().getPort();
        return Map.of("quarkus.rest-client.ledger.url", url, "quarkus.rest-client.slo.url", url,
                "quarkus.rest-client.billing.url", url,
                "gpumeter.alert.actions.ticket.url", url + "/tickets");
    }

    private void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        if (path.equals("/tickets")) {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            String auth = exchange.getRequestHeaders().getFirst("Authorization");
            TICKETS.add(List.of(auth == null ? "" : auth, body));
            reply(exchange, 204, "");
            return;
        }
        Answer answer = ROUTES.get(path);
        if (answer == null) {
            reply(exchange, 404, "{\"status\":404,\"title\":\"Not Found\"}");
        } else {
            reply(exchange, answer.status(), answer.body());
        }
    }

    private static void reply(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            exchange.getResponseBody().write(bytes);
        }
        exchange.close();
    }

    @Override
    public void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    // --- Building a ledger situation --------------------------------------------------------

    static void reset() {
        ROUTES.clear();
        TICKETS.clear();
    }

    static void answer(String path, String json) {
        ROUTES.put(path, new Answer(200, json));
    }

    static void fail(String path, int status) {
        ROUTES.put(path, new Answer(status, "{\"status\":" + status + "}"));
    }

    /** The nodes that held GPUs (gpu-hours grouped by node). */
    static void nodes(String... nodes) {
        StringBuilder json = new StringBuilder("[");
        for (String n : nodes) {
            json.append(json.length() > 1 ? "," : "").append("{\"key\":\"").append(n).append("\",\"group\":{\"node\":\"")
                    .append(n).append("\"},\"allocatedGpuHours\":1}");
        }
        answer("/api/v1/gpu-hours", json.append("]").toString());
    }

    /** An occupant row: pod ns/pod of tenant on the card, held for {@code held}. */
    static String occupant(String node, String gpu, String namespace, String pod, String tenant, Duration held) {
        return "{\"cluster\":\"c1\",\"node\":\"" + node + "\",\"gpuUuid\":\"" + gpu + "\",\"namespace\":\"" + namespace
                + "\",\"pod\":\"" + pod + "\",\"podUid\":\"uid-" + pod + "\",\"tenant\":\"" + tenant + "\",\"fraction\":1,"
                + "\"since\":\"" + Instant.now().minus(held) + "\",\"until\":null}";
    }

    static void occupants(String node, String... rows) {
        answer("/api/v1/nodes/" + node + "/occupants", "[" + String.join(",", rows) + "]");
    }

    /** Per-minute DEVICE series for a card: each entry is field → values, the last value in the newest minute. */
    static void usage(String gpu, Map<String, double[]> series) {
        usageEndingAgo(gpu, 0, series);
    }

    static void usageEndingAgo(String gpu, int endAgo, Map<String, double[]> series) {
        Instant last = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofMinutes(endAgo));
        List<String> points = new ArrayList<>();
        series.forEach((field, values) -> {
            for (int i = 0; i < values.length; i++) {
                Instant minute = last.minus(Duration.ofMinutes(values.length - 1 - i));
                points.add("{\"scope\":\"DEVICE\",\"scopeKey\":\"\",\"field\":\"" + field + "\",\"minute\":\"" + minute
                        + "\",\"mean\":" + values[i] + ",\"max\":" + values[i] + ",\"samples\":4}");
            }
        });
        answer("/api/v1/gpus/" + gpu + "/usage", "[" + String.join(",", points) + "]");
    }

    /**
     * A card's incident as the ledger's {@code GET /api/v1/failures/incidents} answers it (scope "dcgm-health" for
     * "gpu-health", "node" otherwise); open while {@code recovered} is null.
     */
    static String cardIncident(String cause, String node, String gpu, Instant started, Instant recovered, String evidence) {
        ObjectNode i = new ObjectMapper().createObjectNode().put("cluster", "c1").put("cause", cause)
                .put("rootCauseClass", "data-plane").put("scope", "gpu-health".equals(cause) ? "dcgm-health" : "node")
                .put("node", node).putNull("gpuPci").put("gpuUuid", gpu).putNull("namespace").putNull("pod")
                .put("startedAt", started.toString());
        if (recovered == null) {
            i.putNull("recoveredAt").putNull("repairSeconds");
        } else {
            i.put("recoveredAt", recovered.toString()).put("repairSeconds", Duration.between(started, recovered).toSeconds());
        }
        return i.putNull("endedAt").put("open", recovered == null).put("occurrences", 1).put("evidence", evidence).toString();
    }

    static double[] flat(double value, int minutes) {
        double[] v = new double[minutes];
        java.util.Arrays.fill(v, value);
        return v;
    }
}
