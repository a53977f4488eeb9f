package io.gpumeter.alert.rest;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.stubbing.StubMapping;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import io.gpumeter.common.testing.StandIn;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;

/**
 * The ledger (and slo-service, billing-service and a ticket receiver) as alert-service's tests see them: one
 * {@link StandIn} answering, for each path, what the test put there — each answer first checked against the
 * serving service's own example of that read ({@link ServedReads}) — and 404 for anything else, as a ledger without
 * the failures endpoint or an slo-service without an API. The fleet's occupants are every node's rows the test gave and
 * the usage read every card's series the test gave, as the ledger's bulk reads answer what its per-node and per-card
 * reads do; the failure incidents are answered as the test says the window read and the open read answer them.
 */
public class FakeLedger implements QuarkusTestResourceLifecycleManager {

    static final String INCIDENTS = "/api/v1/failures/incidents";
    static final String FLEET_OCCUPANTS = "/api/v1/fleet/occupants";
    static final String USAGE_SERIES = "/api/v1/usage/series";
    private static final ObjectMapper JSON = StandIn.JSON;

    private static StandIn standIn;
    private static final Map<String, StubMapping> ROUTES = new ConcurrentHashMap<>();
    /** Each node's occupants as put, or its failure; the fleet's read answers them in the order of the nodes' names. */
    private static final Map<String, ResponseDefinitionBuilder> NODES = new TreeMap<>();
    private static final Map<String, ResponseDefinitionBuilder> USAGE = new TreeMap<>();
    private static final Map<String, String> NODE_ROWS = new TreeMap<>();
    private static final Map<String, String> CARD_POINTS = new TreeMap<>();

    /** Every call since the reset, as "METHOD path". */
    static final CallJournal<String> CALLS = new CallJournal<>(r -> r.getMethod().getName() + " " + path(r));
    /** Every call with its query, decoded: {@code GET /path?a=b}. */
    static final CallJournal<String> ASKED = new CallJournal<>(r -> r.getMethod().getName() + " " + path(r)
            + (r.getUrl().contains("?") ? "?" + URLDecoder.decode(r.getUrl().substring(r.getUrl().indexOf('?') + 1),
            StandardCharsets.UTF_8) : ""));
    /** The query of each call to the failure incidents, as sent. */
    static final List<String> INCIDENT_QUERIES = new CallJournal<>(r -> r.getUrl().contains("?")
            ? r.getUrl().substring(r.getUrl().indexOf('?') + 1) : "") {
        @Override
        boolean counts(LoggedRequest r) {
            return path(r).equals(INCIDENTS);
        }
    };
    /** Bodies POSTed to /tickets, with their Authorization header first. */
    static final List<List<String>> TICKETS = new CallJournal<>(r -> List.of(
            r.getHeader("Authorization") == null ? "" : r.getHeader("Authorization"), r.getBodyAsString())) {
        @Override
        boolean counts(LoggedRequest r) {
            return path(r).equals("/tickets");
        }
    };

    @Override
    public Map<String, String> start() {
        standIn = StandIn.start();
        CallJournal.logged = () -> standIn.calls(anyRequestedFor(anyUrl()));
        reset();
        String url = standIn.url();
        return Map.of("quarkus.rest-client.ledger.url", url, "quarkus.rest-client.slo.url", url,
                "quarkus.rest-client.billing.url", url, "gpumeter.alert.actions.ticket.url", url + "/tickets");
    }

    @Override
    public void stop() {
        standIn.close();
    }

    static String path(LoggedRequest r) {
        return r.getUrl().contains("?") ? r.getUrl().substring(0, r.getUrl().indexOf('?')) : r.getUrl();
    }

    // --- Building a ledger situation --------------------------------------------------------

    /** Nothing answered but 404s and the ticket receiver; the journal starts anew. */
    static void reset() {
        standIn.reset();
        ROUTES.clear();
        NODES.clear();
        USAGE.clear();
        NODE_ROWS.clear();
        CARD_POINTS.clear();
        List.of(CALLS, ASKED, (CallJournal<?>) INCIDENT_QUERIES, (CallJournal<?>) TICKETS).forEach(CallJournal::restart);
        standIn.answer(any(anyUrl()).atPriority(10), StandIn.json(404, "{\"status\":404,\"title\":\"Not Found\"}"));
        standIn.answer(post(urlPathEqualTo("/tickets")), WireMock.aResponse().withStatus(204));
    }

    static void answer(String path, String json) {
        route(path, any(urlPathEqualTo(path)), StandIn.json(200, ServedReads.check(path, json)), 4);
        if (path.matches("/api/v1/nodes/[^/]+/occupants")) {
            NODE_ROWS.put(path, json);
            NODES.remove(path);
            fleet();
        } else if (path.matches("/api/v1/gpus/[^/]+/usage")) {
            CARD_POINTS.put(path.split("/")[4], json);
            usageSeries();
        }
    }

    /** An answer to calls of this path whose {@code at} is this instant only, ahead of the path's own. */
    static void answerAt(String path, Instant at, int status, String body) {
        route(path + "@" + at, any(urlPathEqualTo(path)).withQueryParam("at", equalTo(at.toString())),
                StandIn.json(status, body), 1);
    }

    static void fail(String path, int status) {
        ResponseDefinitionBuilder failure = StandIn.json(status, "{\"status\":" + status + "}");
        route(path, any(urlPathEqualTo(path)), failure, 4);
        if (path.matches("/api/v1/nodes/[^/]+/occupants")) {
            NODES.put(path, failure);
            fleet();
        }
    }

    /** What the ledger's failure incidents answer: the window read (from, to) and the read of the open ones. */
    static void incidents(String window, String open) {
        route(INCIDENTS + "?window", get(urlPathEqualTo(INCIDENTS)).withQueryParam("from", WireMock.matching(".+"))
                .withQueryParam("to", WireMock.matching(".+")), StandIn.json(200, ServedReads.check(INCIDENTS, window)), 4);
        route(INCIDENTS + "?open", get(urlPathEqualTo(INCIDENTS)).withQueryParam("open", equalTo("true")),
                StandIn.json(200, ServedReads.check(INCIDENTS, open)), 4);
    }

    private static void route(String key, MappingBuilder request, ResponseDefinitionBuilder response, int priority) {
        StubMapping old = ROUTES.put(key, standIn.answer(request.atPriority(priority), response));
        if (old != null) {
            standIn.server().removeStubMapping(old);
        }
    }

    /** Every node's occupants; a node whose read fails fails the fleet's. */
    private static void fleet() {
        ResponseDefinitionBuilder failed = NODES.values().stream().findFirst().orElse(null);
        StringBuilder rows = new StringBuilder("[");
        NODE_ROWS.values().forEach(json -> {
            String inner = json.strip().substring(1, json.strip().length() - 1).strip();
            rows.append(inner.isEmpty() ? "" : (rows.length() > 1 ? "," : "") + inner);
        });
        route(FLEET_OCCUPANTS + "?composed", get(urlPathEqualTo(FLEET_OCCUPANTS)),
                failed != null ? failed : StandIn.json(200, rows.append("]").toString()), 5);
    }

    /** Each card's own series under its uuid. */
    private static void usageSeries() {
        StringBuilder cards = new StringBuilder("[");
        CARD_POINTS.forEach((gpu, points) -> cards.append(cards.length() > 1 ? "," : "").append("{\"gpuUuid\":")
                .append(JSON.getNodeFactory().textNode(gpu)).append(",\"points\":").append(points).append("}"));
        route(USAGE_SERIES + "?composed", post(urlPathEqualTo(USAGE_SERIES)), StandIn.json(200, cards.append("]").toString()), 5);
    }

    /** The nodes that held GPUs (gpu-hours grouped by node); the ledger knows each, with no occupants unless set. */
    static void nodes(String... nodes) {
        ArrayNode hours = JSON.createArrayNode();
        for (String n : nodes) {
            hours.addObject().put("key", n).put("allocatedGpuHours", 1).putObject("group").put("node", n);
            if (!NODE_ROWS.containsKey("/api/v1/nodes/" + n + "/occupants")) {
                answer("/api/v1/nodes/" + n + "/occupants", "[]");
            }
        }
        answer("/api/v1/gpu-hours", hours.toString());
    }

    /** Cards in the ledger's inventory, held by nobody now; unknown cards answer 404 as the ledger does. */
    static void cards(String... uuids) {
        for (String uuid : uuids) {
            if (!ROUTES.containsKey("/api/v1/gpus/" + uuid + "/occupants")) {
                answer("/api/v1/gpus/" + uuid + "/occupants", "[]");
            }
        }
    }

    /** An occupant row: pod ns/pod of tenant on the card, held for {@code held}. */
    static String occupant(String node, String gpu, String namespace, String pod, String tenant, Duration held) {
        return JSON.createObjectNode().put("cluster", "c1").put("node", node).put("gpuUuid", gpu).put("namespace", namespace)
                .put("pod", pod).put("podUid", "uid-" + pod).put("tenant", tenant).put("fraction", 1)
                .put("since", Instant.now().minus(held).toString()).putNull("until").toString();
    }

    /** The node's occupants now; the cards they hold answer their own occupants too, as in the ledger. */
    static void occupants(String node, String... rows) {
        answer("/api/v1/nodes/" + node + "/occupants", "[" + String.join(",", rows) + "]");
        Map<String, List<String>> byCard = new TreeMap<>();
        for (String row : rows) {
            byCard.computeIfAbsent(readTree(row).path("gpuUuid").asText(), g -> new java.util.ArrayList<>()).add(row);
        }
        byCard.forEach((gpu, held) -> answer("/api/v1/gpus/" + gpu + "/occupants", "[" + String.join(",", held) + "]"));
    }

    /** Per-minute DEVICE series for a card: each entry is field → values, the last value in the newest minute. */
    static void usage(String gpu, Map<String, double[]> series) {
        usageEndingAgo(gpu, 0, series);
    }

    static void usageEndingAgo(String gpu, int endAgo, Map<String, double[]> series) {
        Instant last = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofMinutes(endAgo));
        ArrayNode points = JSON.createArrayNode();
        series.forEach((field, values) -> {
            for (int i = 0; i < values.length; i++) {
                points.addObject().put("scope", "DEVICE").put("scopeKey", "").put("field", field)
                        .put("minute", last.minus(Duration.ofMinutes(values.length - 1 - i)).toString())
                        .put("mean", values[i]).put("max", values[i]).put("samples", 4);
            }
        });
        answer("/api/v1/gpus/" + gpu + "/usage", points.toString());
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

    private static com.fasterxml.jackson.databind.JsonNode readTree(String json) {
        try {
            return JSON.readTree(json);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
