package io.gpumeter.slo.rest;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;

/**
 * A stand-in ledger-service on a free port that answers the pod, card-occupant and usage reads in the ledger's own
 * JSON shapes from what a test put in {@link #HOLDINGS} and {@link #USAGE}, filtered by {@code at} and
 * {@code from}/{@code to} as the ledger filters them, and a pod's scheduling decision from {@link #DECISIONS} (404
 * for a pod not there, as the ledger answers for a pod it holds no record of). A card, or a pod ("namespace/pod")
 * asked for its decision, in {@link #FAILING} answers 500.
 */
public class FakeLedger implements QuarkusTestResourceLifecycleManager {

    /** One unit a pod held over {@code [since, until)} (until null: still held). */
    public record Holding(String namespace, String pod, String gpuUuid, String node, String ownerKind,
                          String ownerName, String tenant, Instant since, Instant until) {

        boolean heldAt(Instant t) {
            return !since.isAfter(t) && (until == null || until.isAfter(t));
        }

        String json() {
            return "{\"cluster\":\"c1\",\"node\":\"" + node + "\",\"gpuUuid\":\"" + gpuUuid + "\",\"namespace\":\""
                    + namespace + "\",\"pod\":\"" + pod + "\",\"podUid\":\"uid-" + pod + "\",\"owner\":{\"kind\":\""
                    + ownerKind + "\",\"name\":\"" + ownerName + "\"},\"tenant\":\"" + tenant + "\",\"team\":null,"
                    + "\"project\":null,\"unit\":{\"kind\":\"WHOLE\",\"migProfile\":null,\"migInstance\":null,"
                    + "\"cores\":null,\"memoryMiB\":null,\"source\":\"device-plugin\"},\"fraction\":1,\"since\":\""
                    + since + "\",\"until\":" + (until == null ? "null" : "\"" + until + "\"") + "}";
        }
    }

    /** One minute of one usage series of a card, as the ledger's UsagePoint. */
    public record Usage(String gpuUuid, String scope, String scopeKey, String field, Instant minute, double mean) {

        String json() {
            return "{\"scope\":\"" + scope + "\",\"scopeKey\":\"" + scopeKey + "\",\"field\":\"" + field
                    + "\",\"minute\":\"" + minute + "\",\"mean\":" + mean + ",\"max\":" + mean + ",\"samples\":4}";
        }
    }

    /** A pod's scheduling decision with the queues it went through; all three null: it went through none. */
    public record Decision(String namespace, String pod, String clusterQueue, String localQueue, String volcanoQueue) {

        String json() {
            String queue = clusterQueue == null && localQueue == null && volcanoQueue == null ? "null"
                    : "{\"clusterQueue\":" + quoted(clusterQueue) + ",\"localQueue\":" + quoted(localQueue)
                    + ",\"volcanoQueue\":" + quoted(volcanoQueue) + "}";
            return "{\"cluster\":\"c1\",\"kind\":\"Pod\",\"namespace\":\"" + namespace + "\",\"name\":\"" + pod
                    + "\",\"uid\":\"uid-" + pod + "\",\"queue\":" + queue + ",\"state\":\"ADMITTED\","
                    + "\"waitingSince\":null,\"reasonClass\":null,\"rootCauseClass\":null,\"reason\":null,"
                    + "\"message\":null,\"rejections\":0,\"waits\":[],\"phases\":null,\"trail\":[]}";
        }

        private static String quoted(String s) {
            return s == null ? "null" : "\"" + s + "\"";
        }
    }

    static final List<Holding> HOLDINGS = new CopyOnWriteArrayList<>();
    static final List<Decision> DECISIONS = new CopyOnWriteArrayList<>();
    static final List<Usage> USAGE = new CopyOnWriteArrayList<>();
    static final List<String> FAILING = new CopyOnWriteArrayList<>();
    /** Every path and query asked, in order. */
    static final List<String> REQUESTS = new CopyOnWriteArrayList<>();

    private HttpServer server;

    @Override
    public Map<String, String> start() {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.setExecutor(Executors.newFixedThreadPool(4, r -> {
            Thread t = new Thread(r, "fake-ledger");
            t.setDaemon(true);
            return t;
        }));
        server.createContext("/api/v1/", this::handle);
        server.start();
        return Map.of("quarkus.rest-client.ledger.url", "http://127.0.0.1:" + server.getAddress().getPort());
    }

    @Override
    public void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    private void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        Map<String, String> q = query(exchange);
        REQUESTS.add(path + "?" + exchange.getRequestURI().getRawQuery());
        if (path.equals("/api/v1/occupants")) {
            Instant at = Instant.parse(q.get("at"));
            send(exchange, 200, array(HOLDINGS.stream().filter(h -> h.namespace().equals(q.get("namespace"))
                    && h.pod().equals(q.get("pod")) && h.heldAt(at)).map(Holding::json).toList()));
            return;
        }
        if (path.equals("/api/v1/scheduling-decisions")) {
            String pod = q.get("namespace") + "/" + q.get("pod");
            if (FAILING.contains(pod)) {
                send(exchange, 500, "{\"title\":\"Internal Server Error\"}");
                return;
            }
            Decision decision = DECISIONS.stream()
                    .filter(d -> d.namespace().equals(q.get("namespace")) && d.pod().equals(q.get("pod")))
                    .findFirst().orElse(null);
            if (decision == null) {
                send(exchange, 404, "{\"title\":\"Not Found\",\"status\":404,\"field\":\"pod\"}");
            } else {
                send(exchange, 200, decision.json());
            }
            return;
        }
        String[] parts = path.split("/"); // "", api, v1, gpus, {uuid}, occupants|usage
        if (parts.length == 6 && parts[3].equals("gpus")) {
            String gpu = URLDecoder.decode(parts[4], StandardCharsets.UTF_8);
            if (FAILING.contains(gpu)) {
                send(exchange, 500, "{\"title\":\"Internal Server Error\"}");
            } else if (parts[5].equals("occupants")) {
                Instant at = Instant.parse(q.get("at"));
                send(exchange, 200, array(HOLDINGS.stream().filter(h -> h.gpuUuid().equals(gpu) && h.heldAt(at))
                        .map(Holding::json).toList()));
            } else if (parts[5].equals("usage")) {
                Instant from = Instant.parse(q.get("from"));
                Instant to = Instant.parse(q.get("to"));
                send(exchange, 200, array(USAGE.stream().filter(u -> u.gpuUuid().equals(gpu)
                        && !u.minute().isBefore(from) && u.minute().isBefore(to)).map(Usage::json).toList()));
            } else {
                send(exchange, 404, "{\"title\":\"Not Found\"}");
            }
            return;
        }
        send(exchange, 404, "{\"title\":\"Not Found\"}");
    }

    private static String array(List<String> items) {
        return items.stream().collect(Collectors.joining(",", "[", "]"));
    }

    private static Map<String, String> query(HttpExchange exchange) {
        Map<String, String> params = new HashMap<>();
        String raw = exchange.getRequestURI().getRawQuery();
        if (raw != null) {
            for (String pair : raw.split("&")) {
                int eq = pair.indexOf('=');
                params.put(URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8),
                        eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return params;
    }

    private static void send(HttpExchange exchange, int status, String json) throws IOException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, body.length);
        try (var out = exchange.getResponseBody()) {
            out.write(body);
        }
    }
}
