package io.gpumeter.slo.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import java.util.LinkedHashSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;

/**
 * A stand-in ledger-service on a free port that answers the bulk reads — pods' and cards' holdings over a window
 * ({@code POST /api/v1/holdings}, {@code POST /api/v1/card-holdings}) and cards' usage
 * ({@code POST /api/v1/usage/series}) — in the ledger's own JSON shapes from what a test put in
 * {@link #HOLDINGS} and {@link #USAGE}, clipped and filtered as the ledger does, and a pod's scheduling decision from
 * {@link #DECISIONS} (404 for a pod not there, as the ledger answers for a pod it holds no record of), and the change
 * book's bulk and impact reads from {@link #CHANGES}, pods' incidents from {@link #INCIDENTS}, and the bulk host read
 * from {@link FakeHost}'s minutes (the cards' clocks-event reasons are {@link #USAGE} series like any other). A read that
 * would answer about a card in {@link #FAILING}, or a decision for a pod ("namespace/pod") there, answers 500. The
 * ledger's per-pod and per-card reads are not offered (404), so a caller that falls back to them is noticed. Every
 * answer of a read the ledger's tests recorded is checked against their example ({@link ServedReads}).
 */
public class FakeLedger implements QuarkusTestResourceLifecycleManager {

    /** One unit a pod held over {@code [since, until)} (until null: still held). */
    public record Holding(String namespace, String pod, String gpuUuid, String node, String ownerKind,
                          String ownerName, String tenant, Instant since, Instant until, String unitKind,
                          String fraction, Integer cores, Long memoryMiB) {

        /** A whole card. */
        public Holding(String namespace, String pod, String gpuUuid, String node, String ownerKind, String ownerName,
                       String tenant, Instant since, Instant until) {
            this(namespace, pod, gpuUuid, node, ownerKind, ownerName, tenant, since, until, "WHOLE", "1", null, null);
        }

        /** This unit as a holdings read answers it over [from, to): the part of the window held; null if none. */
        String clipped(Instant from, Instant to) {
            if (!since.isBefore(to) || until != null && !until.isAfter(from)) {
                return null;
            }
            Instant heldFrom = since.isAfter(from) ? since : from;
            Instant heldTo = until == null || until.isAfter(to) ? to : until;
            return "{\"from\":\"" + heldFrom + "\",\"to\":\"" + heldTo + "\",\"occupant\":" + json() + "}";
        }

        String json() {
            return "{\"cluster\":\"c1\",\"node\":" + str(node) + ",\"gpuUuid\":" + str(gpuUuid) + ",\"namespace\":"
                    + str(namespace) + ",\"pod\":" + str(pod) + ",\"podUid\":" + str("uid-" + pod) + ",\"owner\":{\"kind\":"
                    + str(ownerKind) + ",\"name\":" + str(ownerName) + "},\"tenant\":" + str(tenant) + ",\"team\":null,"
                    + "\"project\":null,\"unit\":{\"kind\":" + str(unitKind) + ",\"migProfile\":null,\"migInstance\":null,"
                    + "\"cores\":" + cores + ",\"memoryMiB\":" + memoryMiB + ",\"source\":\"device-plugin\"},"
                    + "\"fraction\":" + fraction + ",\"since\":\""
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

    /**
     * A pod's scheduling decision with the queues it went through (all three null: it went through none) and when the
     * pod was created (null: not said).
     */
    public record Decision(String namespace, String pod, String clusterQueue, String localQueue, String volcanoQueue,
                           Instant createdAt) {

        public Decision(String namespace, String pod, String clusterQueue, String localQueue, String volcanoQueue) {
            this(namespace, pod, clusterQueue, localQueue, volcanoQueue, null);
        }

        /** The pod's entry in a pod queues answer, shaped as the ledger's PodQueue. */
        String json() {
            String queue = clusterQueue == null && localQueue == null && volcanoQueue == null ? "null"
                    : "{\"clusterQueue\":" + quoted(clusterQueue) + ",\"localQueue\":" + quoted(localQueue)
                    + ",\"volcanoQueue\":" + quoted(volcanoQueue) + "}";
            return "{\"namespace\":" + str(namespace) + ",\"pod\":" + str(pod) + ",\"known\":true,\"queue\":" + queue
                    + ",\"createdAt\":" + (createdAt == null ? "null" : "\"" + createdAt + "\"") + "}";
        }

        static String unknown(String namespace, String pod) {
            return "{\"namespace\":" + str(namespace) + ",\"pod\":" + str(pod) + ",\"known\":false,\"queue\":null}";
        }

        private static String quoted(String s) {
            return str(s);
        }
    }

    /** An incident of a pod, as the ledger's incident reads answer it ({@code recoveredAt} null: not recovered). */
    public record Incident(String id, String namespace, String pod, String cause, Instant startedAt,
                           Instant recoveredAt) {

        String json() {
            return "{\"id\":" + str(id) + ",\"cluster\":\"c1\",\"cause\":" + str(cause) + ",\"rootCauseClass\":"
                    + "\"workload\",\"scope\":\"pod\",\"namespace\":" + str(namespace) + ",\"pod\":" + str(pod)
                    + ",\"startedAt\":\"" + startedAt + "\",\"recoveredAt\":" + (recoveredAt == null ? "null"
                    : "\"" + recoveredAt + "\"") + ",\"endedAt\":null,\"open\":" + (recoveredAt == null)
                    + ",\"occurrences\":1,\"changesBefore\":[]}";
        }
    }

    /** One change of the change book, as the ledger's change reads answer it ({@code node} null: cluster-wide). */
    public record BookChange(String id, Instant at, String cluster, String node, String kind, String subject,
                             String before, String after) {

        String json() {
            return "{\"id\":" + str(id) + ",\"at\":\"" + at + "\",\"cluster\":" + str(cluster) + ",\"node\":" + str(node)
                    + ",\"kind\":" + str(kind) + ",\"subject\":" + str(subject) + ",\"before\":" + str(before)
                    + ",\"after\":" + str(after) + ",\"source\":\"node labels\",\"count\":1}";
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    static final List<Holding> HOLDINGS = new CopyOnWriteArrayList<>();
    static final List<Decision> DECISIONS = new CopyOnWriteArrayList<>();
    /** The incidents {@code POST /api/v1/failures/pod-incidents} answers, of the pods asked that started in the window. */
    static final List<Incident> INCIDENTS = new CopyOnWriteArrayList<>();
    static final List<Usage> USAGE = new CopyOnWriteArrayList<>();
    static final List<String> FAILING = new CopyOnWriteArrayList<>();
    /**
     * The change book: {@code POST /api/v1/changes/bulk} answers each scope from it as the ledger does (the node's
     * changes and, with clusterWide, the cluster's cluster-wide ones, in [from, to), newest first when asked, cut to the
     * limit); {@code GET /api/v1/changes/{id}/impact} answers the change, its node (every node {@link #HOLDINGS} names
     * for a cluster-wide one) and the ledger's windows, with the GPU-hours of {@link #GPU_HOURS} (before, after). A
     * bulk read answers 500 while {@link #FAILING} holds "changes".
     */
    static final List<BookChange> CHANGES = new CopyOnWriteArrayList<>();
    static final Map<String, double[]> GPU_HOURS = new java.util.concurrent.ConcurrentHashMap<>();
    /**
     * Canned answers of the ledger's GET reads (queue waits, pending, GPU-hours, fragmentation), keyed by path, or by
     * path and groupBy as "path?groupBy=x"; a path not here answers 404.
     */
    static final Map<String, String> GETS = new java.util.concurrent.ConcurrentHashMap<>();
    /** Every path and query asked, in order; a POST's body follows its path after a '?'. */
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
        // billing's costs and alert-service's runbook are canned GETs of the same server
        String url = "http://127.0.0.1:" + server.getAddress().getPort();
        return Map.of("quarkus.rest-client.ledger.url", url, "quarkus.rest-client.billing.url", url,
                "quarkus.rest-client.alert.url", url);
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
        boolean post = "POST".equals(exchange.getRequestMethod());
        String body = post ? new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8) : null;
        REQUESTS.add(path + "?" + (post ? body : exchange.getRequestURI().getRawQuery()));
        if (post && path.equals("/api/v1/holdings")) {
            JsonNode asked = JSON.readTree(body);
            Instant from = Instant.parse(asked.path("from").asText());
            Instant to = Instant.parse(asked.path("to").asText());
            Set<String> pods = new LinkedHashSet<>();
            asked.path("pods").forEach(p -> pods.add(p.path("namespace").asText() + "/" + p.path("pod").asText()));
            send(exchange, 200, array(pods.stream().map(key -> {
                int slash = key.indexOf('/');
                String units = array(HOLDINGS.stream().filter(h -> (h.namespace() + "/" + h.pod()).equals(key))
                        .map(h -> h.clipped(from, to)).filter(java.util.Objects::nonNull).toList());
                return "{\"namespace\":" + str(key.substring(0, slash)) + ",\"pod\":" + str(key.substring(slash + 1))
                        + ",\"units\":" + units + "}";
            }).toList()));
            return;
        }
        if (post && path.equals("/api/v1/usage/series")) {
            JsonNode asked = JSON.readTree(body);
            Instant from = Instant.parse(asked.path("from").asText());
            Instant to = Instant.parse(asked.path("to").asText());
            Set<String> gpus = new LinkedHashSet<>();
            asked.path("gpus").forEach(g -> gpus.add(g.asText()));
            if (gpus.stream().anyMatch(FAILING::contains)) {
                send(exchange, 500, "{\"title\":\"Internal Server Error\"}");
                return;
            }
            send(exchange, 200, array(gpus.stream().map(gpu -> "{\"gpuUuid\":\"" + gpu + "\",\"points\":"
                    + array(USAGE.stream().filter(u -> u.gpuUuid().equals(gpu) && !u.minute().isBefore(from)
                    && u.minute().isBefore(to)).map(Usage::json).toList()) + "}").toList()));
            return;
        }
        if (post && path.equals("/api/v1/host/series")) {
            FakeHost.Answer answer = FakeHost.series(JSON.readTree(body));
            send(exchange, answer.status(), answer.json());
            return;
        }
        if (post && path.equals("/api/v1/card-holdings")) {
            JsonNode asked = JSON.readTree(body);
            Instant from = Instant.parse(asked.path("from").asText());
            Instant to = Instant.parse(asked.path("to").asText());
            Set<String> gpus = new LinkedHashSet<>();
            asked.path("gpus").forEach(g -> gpus.add(g.asText()));
            if (gpus.stream().anyMatch(FAILING::contains)) {
                send(exchange, 500, "{\"title\":\"Internal Server Error\"}");
                return;
            }
            send(exchange, 200, array(gpus.stream().map(gpu -> "{\"gpuUuid\":\"" + gpu + "\",\"units\":"
                    + array(HOLDINGS.stream().filter(h -> h.gpuUuid().equals(gpu)).map(h -> h.clipped(from, to))
                    .filter(java.util.Objects::nonNull).toList()) + "}").toList()));
            return;
        }
        if (post && path.equals("/api/v1/pod-queues")) {
            List<String> answers = new ArrayList<>();
            for (JsonNode ref : JSON.readTree(body).path("pods")) {
                String namespace = ref.path("namespace").asText();
                String pod = ref.path("pod").asText();
                if (FAILING.contains(namespace + "/" + pod)) {
                    send(exchange, 500, "{\"title\":\"Internal Server Error\"}");
                    return;
                }
                answers.add(DECISIONS.stream().filter(d -> d.namespace().equals(namespace) && d.pod().equals(pod))
                        .findFirst().map(Decision::json).orElse(Decision.unknown(namespace, pod)));
            }
            send(exchange, 200, array(answers));
            return;
        }
        if (post && path.equals("/api/v1/failures/pod-incidents")) {
            JsonNode asked = JSON.readTree(body);
            Instant from = Instant.parse(asked.path("from").asText());
            Instant to = Instant.parse(asked.path("to").asText());
            Set<String> pods = new LinkedHashSet<>();
            asked.path("pods").forEach(p -> pods.add(p.path("namespace").asText() + "/" + p.path("pod").asText()));
            send(exchange, 200, array(INCIDENTS.stream().filter(i -> pods.contains(i.namespace() + "/" + i.pod())
                            && !i.startedAt().isBefore(from) && i.startedAt().isBefore(to))
                    .sorted(java.util.Comparator.comparing(Incident::startedAt)).map(Incident::json).toList()));
            return;
        }
        if (post && path.equals("/api/v1/changes/bulk")) {
            if (FAILING.contains("changes")) {
                send(exchange, 500, "{\"title\":\"Internal Server Error\"}");
                return;
            }
            List<String> answers = new ArrayList<>();
            for (JsonNode scope : JSON.readTree(body).path("scopes")) {
                answers.add(scope(scope));
            }
            send(exchange, 200, array(answers));
            return;
        }
        if (!post && path.startsWith("/api/v1/changes/") && path.endsWith("/impact")) {
            impact(exchange, path.substring("/api/v1/changes/".length(), path.length() - "/impact".length()), q);
            return;
        }
        if (!post) {
            String canned = GETS.getOrDefault(path + "?groupBy=" + q.get("groupBy"), GETS.get(path));
            if (canned != null) {
                send(exchange, 200, canned);
                return;
            }
        }
        send(exchange, 404, "{\"title\":\"Not Found\"}");
    }

    /** One scope of a bulk read of the change book, answered as the ledger does. */
    private static String scope(JsonNode scope) {
        String cluster = scope.path("cluster").asText();
        String node = scope.path("node").isTextual() ? scope.path("node").asText() : null;
        Instant from = Instant.parse(scope.path("from").asText());
        Instant to = Instant.parse(scope.path("to").asText());
        boolean clusterWide = !scope.path("clusterWide").isBoolean() || scope.path("clusterWide").asBoolean();
        int limit = scope.path("limit").isInt() ? scope.path("limit").asInt() : 1000;
        boolean newest = scope.path("newestFirst").asBoolean(false);
        java.util.Comparator<BookChange> order = java.util.Comparator.comparing(BookChange::at);
        List<BookChange> found = CHANGES.stream().filter(c -> c.cluster().equals(cluster)
                        && (node == null || node.equals(c.node()) || clusterWide && c.node() == null)
                        && !c.at().isBefore(from) && c.at().isBefore(to))
                .sorted(newest ? order.reversed() : order).toList();
        return "{\"cluster\":" + str(cluster) + ",\"node\":" + str(node) + ",\"from\":\"" + from + "\",\"to\":\"" + to
                + "\",\"total\":" + found.size() + ",\"changes\":"
                + array(found.stream().limit(limit).map(BookChange::json).toList()) + "}";
    }

    /** A change's impact windows as the ledger works them out; 404 for an unknown change, 400 for a wrong bound. */
    private static void impact(HttpExchange exchange, String id, Map<String, String> q) throws IOException {
        BookChange change = CHANGES.stream().filter(c -> c.id().equals(id)).findFirst().orElse(null);
        if (change == null) {
            send(exchange, 404, "{\"title\":\"Not Found\",\"status\":404,\"field\":\"id\",\"detail\":\"no change " + id + "\"}");
            return;
        }
        Instant at = change.at();
        Instant from = q.containsKey("from") ? Instant.parse(q.get("from")) : null;
        Instant to = q.containsKey("to") ? Instant.parse(q.get("to")) : null;
        Instant start = from != null ? from : to != null ? at.minus(java.time.Duration.between(at, to)) : at.minus(java.time.Duration.ofDays(1));
        Instant end = to != null ? to : at.plus(java.time.Duration.between(start, at));
        if (!start.isBefore(at)) {
            send(exchange, 400, "{\"title\":\"Bad Request\",\"status\":400,\"field\":\"from\",\"detail\":"
                    + "\"from must be before the change at " + at + "\"}");
            return;
        }
        List<String> nodes = change.node() != null ? List.of(change.node())
                : HOLDINGS.stream().map(Holding::node).filter(java.util.Objects::nonNull).distinct().sorted().toList();
        double[] hours = GPU_HOURS.getOrDefault(id, new double[2]);
        send(exchange, 200, "{\"change\":" + change.json() + ",\"nodes\":" + array(nodes.stream().map(FakeLedger::str).toList())
                + ",\"before\":{\"from\":\"" + start + "\",\"to\":\"" + at + "\",\"gpuHours\":" + hours[0]
                + ",\"failures\":0},\"after\":{\"from\":\"" + at + "\",\"to\":\"" + end + "\",\"gpuHours\":" + hours[1]
                + ",\"failures\":0}}");
    }

    /**
     * Whether a request is the holdings read that places a burning SLO's pods on their nodes for the changes before it:
     * its window is the look-back before the status, one day by default. Tenant reads span hours.
     */
    static boolean placesForChanges(String request) {
        if (!request.startsWith("/api/v1/holdings?")) {
            return false;
        }
        try {
            JsonNode body = JSON.readTree(request.substring(request.indexOf('?') + 1));
            return java.time.Duration.between(Instant.parse(body.path("from").asText()), Instant.parse(body.path("to").asText()))
                    .equals(java.time.Duration.ofDays(1));
        } catch (IOException e) {
            return false;
        }
    }

    /** The calls made to {@code path} (e.g. "/api/v1/holdings") since {@code before} calls had been made. */
    static long calls(String path, int before) {
        return REQUESTS.subList(before, REQUESTS.size()).stream().filter(r -> r.startsWith(path + "?")).count();
    }

    /** A string as a JSON value, escaped: names in tests may hold quotes, backslashes and line breaks. */
    static String str(String s) {
        try {
            return JSON.writeValueAsString(s);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
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

    /** Sends the answer; one of a read the ledger's tests recorded is first checked against their example. */
    private static void send(HttpExchange exchange, int status, String json) throws IOException {
        if (status == 200) {
            try {
                ServedReads.check(exchange.getRequestURI().getPath(), json);
            } catch (AssertionError drift) {
                // said loudly: slo-service would only see a failed read
                System.err.println("FakeLedger: " + drift.getMessage());
                status = 500;
                json = "{\"title\":\"the stand-in's answer is not the ledger's\",\"detail\":" + str(drift.getMessage()) + "}";
            }
        }
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, body.length);
        try (var out = exchange.getResponseBody()) {
            out.write(body);
        }
    }
}
