package io.gpumeter.alert.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

/**
 * A stand-in for ledger-service (and slo-service, billing-service, and a ticket receiver) on a free port: each path answers what the
 * test put there, everything else 404 — as a ledger without the failures endpoint, or an slo-service without an API.
 * The failure incidents put there are the ledger's book: each call gets those its query selects, as the ledger would.
 * The ledger's bulk reads answer from the per-node and per-card answers put there, as the ledger would: the fleet's
 * occupants are every node's, and a usage read gives each card named its own series (a card whose own read fails
 * fails the read). Every call is counted in {@link #CALLS}.
 */
public class FakeLedger implements QuarkusTestResourceLifecycleManager {

    /** A canned answer. */
    public record Answer(int status, String body) {
    }

    static final String INCIDENTS = "/api/v1/failures/incidents";
    static final String FLEET_OCCUPANTS = "/api/v1/fleet/occupants";
    static final String USAGE_SERIES = "/api/v1/usage/series";
    private static final ObjectMapper JSON = new ObjectMapper();

    static final Map<String, Answer> ROUTES = new ConcurrentHashMap<>();
    /** The query of each call to the failure incidents, as sent. */
    static final List<String> INCIDENT_QUERIES = new CopyOnWriteArrayList<>();
    /** Every call, as "METHOD path", in order. */
    static final List<String> CALLS = new CopyOnWriteArrayList<>();
    /** Every call with its query, decoded: {@code GET /path?a=b}. */
    static final List<String> ASKED = new CopyOnWriteArrayList<>();
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
        CALLS.add(exchange.getRequestMethod() + " " + path);
        String raw = exchange.getRequestURI().getRawQuery();
        String decoded = raw == null ? "" : java.net.URLDecoder.decode(raw, StandardCharsets.UTF_8);
        ASKED.add(exchange.getRequestMethod() + " " + path + (raw == null ? "" : "?" + decoded));
        String at = java.util.Arrays.stream(decoded.split("&")).filter(p -> p.startsWith("at=")).map(p -> p.substring(3))
                .findFirst().orElse(null);
        if (at != null && ROUTES.containsKey(path + "@" + at)) {
            Answer then = ROUTES.get(path + "@" + at);
            reply(exchange, then.status(), then.body());
            return;
        }
        if (path.equals(FLEET_OCCUPANTS) && !ROUTES.containsKey(path)) {
            Answer fleet = fleetOccupants();
            reply(exchange, fleet.status(), fleet.body());
            return;
        }
        if (path.equals(USAGE_SERIES) && !ROUTES.containsKey(path)) {
            Answer usage = usageSeries(JSON.readTree(exchange.getRequestBody()));
            reply(exchange, usage.status(), usage.body());
            return;
        }
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
        } else if (path.equals(INCIDENTS) && answer.status() == 200) {
            String query = exchange.getRequestURI().getRawQuery();
            INCIDENT_QUERIES.add(query == null ? "" : query);
            Answer asked = incidentsAsked(answer.body(), query);
            reply(exchange, asked.status(), asked.body());
        } else {
            reply(exchange, answer.status(), answer.body());
        }
    }

    /**
     * The incidents the ledger would answer for this query: those whose start lies in [from, to), and with
     * {@code open=true} only the open ones, from and to then optional. Without open=true from and to are required.
     */
    private static Answer incidentsAsked(String body, String rawQuery) throws IOException {
        Map<String, String> query = new HashMap<>();
        for (String pair : rawQuery == null ? new String[0] : rawQuery.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                query.put(pair.substring(0, eq), URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        boolean open = "true".equals(query.get("open"));
        if (!open && (query.get("from") == null || query.get("to") == null)) {
            return new Answer(400, "{\"status\":400,\"field\":\"from\"}");
        }
        Instant from = query.containsKey("from") ? Instant.parse(query.get("from")) : Instant.MIN;
        Instant to = query.containsKey("to") ? Instant.parse(query.get("to")) : Instant.MAX;
        ArrayNode kept = JSON.createArrayNode();
        for (JsonNode incident : JSON.readTree(body)) {
            Instant started = Instant.parse(incident.get("startedAt").asText());
            if (!started.isBefore(from) && started.isBefore(to) && (!open || incident.path("open").asBoolean())) {
                kept.add(incident);
            }
        }
        return new Answer(200, kept.toString());
    }

    /** Every node's occupants, as the ledger's fleet read answers them; a node whose read fails fails it. */
    private static Answer fleetOccupants() throws IOException {
        ArrayNode all = JSON.createArrayNode();
        for (Map.Entry<String, Answer> route : new java.util.TreeMap<>(ROUTES).entrySet()) {
            if (route.getKey().startsWith("/api/v1/nodes/") && route.getKey().endsWith("/occupants")) {
                if (route.getValue().status() != 200) {
                    return route.getValue();
                }
                JSON.readTree(route.getValue().body()).forEach(all::add);
            }
        }
        return new Answer(200, all.toString());
    }

    /** Each card's own usage answer, in the order named; a card whose read fails fails the read. */
    private static Answer usageSeries(JsonNode asked) throws IOException {
        ArrayNode out = JSON.createArrayNode();
        for (JsonNode gpu : asked.path("gpus")) {
            Answer own = ROUTES.get("/api/v1/gpus/" + gpu.asText() + "/usage");
            if (own != null && own.status() != 200) {
                return own;
            }
            ObjectNode card = out.addObject().put("gpuUuid", gpu.asText());
            card.set("points", own == null ? JSON.createArrayNode() : JSON.readTree(own.body()));
        }
        return new Answer(200, out.toString());
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
        CALLS.clear();
        ASKED.clear();
        TICKETS.clear();
        INCIDENT_QUERIES.clear();
    }

    static void answer(String path, String json) {
        ROUTES.put(path, new Answer(200, json));
    }

    /** An answer to calls of this path whose {@code at} is this instant only, ahead of the path's own. */
    static void answerAt(String path, Instant at, int status, String body) {
        ROUTES.put(path + "@" + at, new Answer(status, body));
    }

    static void fail(String path, int status) {
        ROUTES.put(path, new Answer(status, "{\"status\":" + status + "}"));
    }

    /** The nodes that held GPUs (gpu-hours grouped by node); the ledger knows each, with no occupants unless set. */
    static void nodes(String... nodes) {
        StringBuilder json = new StringBuilder("[");
        for (String n : nodes) {
            json.append(json.length() > 1 ? "," : "").append("{\"key\":\"").append(n).append("\",\"group\":{\"node\":\"")
                    .append(n).append("\"},\"allocatedGpuHours\":1}");
            ROUTES.putIfAbsent("/api/v1/nodes/" + n + "/occupants", new Answer(200, "[]"));
        }
        answer("/api/v1/gpu-hours", json.append("]").toString());
    }

    /** Cards in the ledger's inventory, held by nobody now; unknown cards answer 404 as the ledger does. */
    static void cards(String... uuids) {
        for (String uuid : uuids) {
            ROUTES.putIfAbsent("/api/v1/gpus/" + uuid + "/occupants", new Answer(200, "[]"));
        }
    }

    /** An occupant row: pod ns/pod of tenant on the card, held for {@code held}. */
    static String occupant(String node, String gpu, String namespace, String pod, String tenant, Duration held) {
        return "{\"cluster\":\"c1\",\"node\":\"" + node + "\",\"gpuUuid\":\"" + gpu + "\",\"namespace\":\"" + namespace
                + "\",\"pod\":\"" + pod + "\",\"podUid\":\"uid-" + pod + "\",\"tenant\":\"" + tenant + "\",\"fraction\":1,"
                + "\"since\":\"" + Instant.now().minus(held) + "\",\"until\":null}";
    }

    /** The node's occupants now; the cards they hold answer their own occupants too, as in the ledger. */
    static void occupants(String node, String... rows) {
        answer("/api/v1/nodes/" + node + "/occupants", "[" + String.join(",", rows) + "]");
        Map<String, List<String>> byCard = new HashMap<>();
        for (String row : rows) {
            try {
                byCard.computeIfAbsent(JSON.readTree(row).path("gpuUuid").asText(), g -> new ArrayList<>()).add(row);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        byCard.forEach((gpu, held) -> answer("/api/v1/gpus/" + gpu + "/occupants", "[" + String.join(",", held) + "]"));
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
        ObjectNode i = JSON.createObjectNode().put("cluster", "c1").put("cause", cause)
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

    /** The calls made to a path, e.g. "GET /api/v1/fleet/occupants"; a '*' stands for one path segment. */
    static long calls(String call) {
        String pattern = java.util.regex.Pattern.quote(call).replace("*", "\\E[^/]+\\Q");
        return CALLS.stream().filter(c -> c.matches(pattern)).count();
    }

    static double[] flat(double value, int minutes) {
        double[] v = new double[minutes];
        java.util.Arrays.fill(v, value);
        return v;
    }
}
