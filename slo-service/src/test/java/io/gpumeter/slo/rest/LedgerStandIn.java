package io.gpumeter.slo.rest;

import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.matching.RequestPatternBuilder;
import com.github.tomakehurst.wiremock.stubbing.StubMapping;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import io.gpumeter.common.testing.Contract;
import io.gpumeter.common.testing.StandIn;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.smallrye.faulttolerance.api.CircuitBreakerMaintenance;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;

/**
 * The ledger (and billing's and alert-service's reads) as slo-service's tests that state their answers see it: one
 * {@link StandIn} answering what each test put there for the question it expects, every answer of a recorded read
 * checked first against the ledger's own example ({@link Contract}). The bulk reads of pods and cards answer that the
 * ledger knows nothing of them until a test says otherwise; any other read is WireMock's 404.
 */
public class LedgerStandIn implements QuarkusTestResourceLifecycleManager {

    static final String GPU_HOURS = "/api/v1/gpu-hours";
    private static final Contract HOURS = Contract.of("ledger", "gpu-hours").freeKeysAt("group");
    private static StandIn standIn;

    /** A unit a pod has held since before any window a test's reads ask, and still holds. */
    record Unit(String namespace, String pod, String gpuUuid, String node, String ownerKind, String ownerName,
                String tenant, Instant since, String kind, String fraction, Integer cores, Long memoryMiB,
                boolean arrivedInWindow, Instant until) {

        /** A whole card. */
        Unit(String namespace, String pod, String gpuUuid, String node, String ownerKind, String ownerName,
             String tenant, Instant since) {
            this(namespace, pod, gpuUuid, node, ownerKind, ownerName, tenant, since, "WHOLE", "1", null, null, false,
                    null);
        }

        /** A share of a card. */
        Unit(String namespace, String pod, String gpuUuid, String node, String ownerKind, String ownerName,
             String tenant, Instant since, String kind, String fraction, Integer cores, Long memoryMiB) {
            this(namespace, pod, gpuUuid, node, ownerKind, ownerName, tenant, since, kind, fraction, cores, memoryMiB,
                    false, null);
        }

        /** This unit taken during the windows the test's reads ask: held from its start on. */
        Unit arrivingInTheWindow() {
            return new Unit(namespace, pod, gpuUuid, node, ownerKind, ownerName, tenant, since, kind, fraction, cores,
                    memoryMiB, true, until);
        }

        /** This unit released during the windows the test's reads ask: held until then. */
        Unit leavingAt(Instant released) {
            return new Unit(namespace, pod, gpuUuid, node, ownerKind, ownerName, tenant, since, kind, fraction, cores,
                    memoryMiB, arrivedInWindow, released);
        }
    }

    /** The window the read asked, as the answer's own: the unit was held throughout it. */
    private static final String FROM = "{{jsonPath request.body '$.from'}}";
    private static final String TO = "{{jsonPath request.body '$.to'}}";

    @Override
    public Map<String, String> start() {
        standIn = StandIn.start();
        knowsNothing();
        String url = standIn.url();
        return Map.of("quarkus.rest-client.ledger.url", url, "quarkus.rest-client.billing.url", url,
                "quarkus.rest-client.alert.url", url);
    }

    /**
     * Nothing answered but what the ledger says of pods and cards it knows nothing of, no calls, and slo-service's
     * breakers closed: test classes share the stand-in as they share the service, so each starts its own story with
     * this, and a story that makes the ledger fail on purpose leaves no open breaker to the next.
     */
    static void reset() {
        CircuitBreakerMaintenance.get().resetAll();
        knowsNothing();
    }

    private static void knowsNothing() {
        standIn.reset();
        for (String read : List.of("/api/v1/holdings", "/api/v1/card-holdings", "/api/v1/usage/series",
                "/api/v1/pod-queues", "/api/v1/changes/bulk", "/api/v1/failures/pod-incidents")) {
            standIn.answer(post(urlPathEqualTo(read)).atPriority(10), "[]");
        }
        standIn.answer(post(urlPathEqualTo("/api/v1/host/series")).atPriority(10), "{\"containers\":[],\"nodes\":[]}");
    }

    @Override
    public void stop() {
        standIn.close();
    }

    /** A GPU-hours answer, once checked against the ledger's example of that read. */
    static StubMapping gpuHours(MappingBuilder request, List<Map<String, Object>> rows) {
        return standIn.answer(request, HOURS.check(StandIn.text(rows)));
    }

    /**
     * Units held throughout every window asked: each read of pods' holdings and of cards' holdings answers them over
     * the window the read asked (the ledger's answer for a unit held before and after it). A read of one pod or one
     * card answers that pod's or card's alone; a read of several, all of them.
     */
    static void heldThroughout(List<Unit> units) {
        Map<String, List<Map<String, Object>>> byPod = new LinkedHashMap<>();
        Map<String, List<Map<String, Object>>> byCard = new LinkedHashMap<>();
        for (Unit u : units) {
            byPod.computeIfAbsent(u.namespace() + "/" + u.pod(), k -> new ArrayList<>()).add(held(u));
            byCard.computeIfAbsent(u.gpuUuid(), k -> new ArrayList<>()).add(held(u));
        }
        Contract holdings = Contract.of("ledger", "holdings");
        Contract cardHoldings = Contract.of("ledger", "card-holdings");
        List<Map<String, Object>> pods = new ArrayList<>();
        byPod.forEach((key, held) -> {
            String namespace = key.substring(0, key.indexOf('/'));
            String pod = key.substring(key.indexOf('/') + 1);
            Map<String, Object> answer = Map.of("namespace", namespace, "pod", pod, "units", held);
            pods.add(answer);
            standIn.answer(post(urlPathEqualTo("/api/v1/holdings")).atPriority(4)
                    .withRequestBody(matchingJsonPath("$.pods.length()", equalTo("1")))
                    .withRequestBody(matchingJsonPath("$.pods[0].namespace", equalTo(namespace)))
                    .withRequestBody(matchingJsonPath("$.pods[0].pod", equalTo(pod))),
                    templated(holdings.check(StandIn.text(List.of(answer)))));
        });
        List<Map<String, Object>> cards = new ArrayList<>();
        byCard.forEach((gpu, held) -> {
            Map<String, Object> answer = Map.of("gpuUuid", gpu, "units", held);
            cards.add(answer);
            standIn.answer(post(urlPathEqualTo("/api/v1/card-holdings")).atPriority(4)
                    .withRequestBody(matchingJsonPath("$.gpus.length()", equalTo("1")))
                    .withRequestBody(matchingJsonPath("$.gpus[0]", equalTo(gpu))),
                    templated(cardHoldings.check(StandIn.text(List.of(answer)))));
        });
        // a read of several of these pods or cards; other tests' reads of the shared stand-in keep their own answers
        standIn.answer(post(urlPathEqualTo("/api/v1/holdings")).withRequestBody(matchingJsonPath("$.pods[?(@.pod in ["
                + quoted(byPod.keySet().stream().map(k -> k.substring(k.indexOf('/') + 1))) + "])]")),
                templated(holdings.check(StandIn.text(pods))));
        standIn.answer(post(urlPathEqualTo("/api/v1/card-holdings")).withRequestBody(matchingJsonPath("$.gpus[?(@ in ["
                + quoted(byCard.keySet().stream()) + "])]")), templated(cardHoldings.check(StandIn.text(cards))));
    }

    private static String quoted(java.util.stream.Stream<String> names) {
        return names.distinct().map(n -> "'" + n + "'").collect(Collectors.joining(","));
    }

    private static Map<String, Object> held(Unit u) {
        return LedgerShapes.held(u, u.arrivedInWindow() ? u.since().toString() : FROM,
                u.until() == null ? TO : u.until().toString());
    }

    private static ResponseDefinitionBuilder templated(String json) {
        return StandIn.json(200, json).withTransformers("response-template");
    }

    /**
     * Answers a recorded read of the ledger with this JSON, once checked against the ledger's example of it (a row's
     * group holds the dimensions asked, whichever they are).
     */
    static StubMapping answer(MappingBuilder request, String read, String json) {
        return standIn.answer(request, Contract.of("ledger", read).freeKeysAt("group").check(json));
    }

    /** Answers a read that holds no recorded example's fields to check (or an empty list) with this JSON. */
    static StubMapping answer(MappingBuilder request, String json) {
        return standIn.answer(request, json);
    }

    /**
     * Answers the usage read of exactly these cards over [from, to) with these points, each card's in the order given:
     * the test states what the ledger measured in the window it expects the read to ask.
     */
    static StubMapping usage(Instant from, Instant to, Map<String, List<Map<String, Object>>> pointsByCard) {
        List<Map<String, Object>> cards = new ArrayList<>();
        pointsByCard.forEach((gpu, points) -> cards.add(Map.of("gpuUuid", gpu, "points", points)));
        return answer(post(urlPathEqualTo("/api/v1/usage/series")).withRequestBody(equalToJson(StandIn.text(Map.of(
                "from", from.toString(), "to", to.toString(), "gpus", List.copyOf(pointsByCard.keySet()))), false, true)),
                "usage-series", StandIn.text(cards));
    }

    /** Answers the bulk host read of exactly these pods ("namespace/pod") and nodes of c1 over [from, to). */
    static StubMapping host(Instant from, Instant to, List<String> pods, List<String> nodes,
                            List<Map<String, Object>> containerMinutes, List<Map<String, Object>> nodeMinutes) {
        return answer(post(urlPathEqualTo("/api/v1/host/series")).withRequestBody(equalToJson(StandIn.text(Map.of(
                        "cluster", "c1", "from", from.toString(), "to", to.toString(), "pods", pods, "nodes", nodes)),
                        false, true)),
                "host-series", StandIn.text(Map.of("containers", containerMinutes, "nodes", nodeMinutes)));
    }

    /**
     * Answers the bulk read of the change book that asks exactly these scopes, in this order, as slo-service asks the
     * changes before an instant (every cluster-wide change too, the newest ten): each scope's answer as given.
     */
    static StubMapping changes(List<Map<String, Object>> scopes) {
        List<Map<String, Object>> asked = new ArrayList<>();
        for (Map<String, Object> scope : scopes) {
            Map<String, Object> question = new LinkedHashMap<>();
            for (String key : List.of("cluster", "node", "from", "to")) {
                question.put(key, scope.get(key));
            }
            question.put("clusterWide", true);
            question.put("limit", 10);
            question.put("newestFirst", true);
            asked.add(question);
        }
        return answer(post(urlPathEqualTo("/api/v1/changes/bulk"))
                        .withRequestBody(equalToJson(StandIn.text(Map.of("scopes", asked)))),
                "changes-bulk", StandIn.text(scopes));
    }

    /**
     * The same, for a read that may ask its scopes in any order (a subject's nodes come from a set): each order asked
     * is answered in that order.
     */
    static void changesInAnyOrder(List<Map<String, Object>> scopes) {
        orders(scopes).forEach(LedgerStandIn::changes);
    }

    /** Every order of these scopes. */
    private static List<List<Map<String, Object>>> orders(List<Map<String, Object>> scopes) {
        if (scopes.size() <= 1) {
            return List.of(scopes);
        }
        List<List<Map<String, Object>>> out = new ArrayList<>();
        for (int i = 0; i < scopes.size(); i++) {
            List<Map<String, Object>> rest = new ArrayList<>(scopes);
            Map<String, Object> first = rest.remove(i);
            for (List<Map<String, Object>> tail : orders(rest)) {
                List<Map<String, Object>> order = new ArrayList<>(List.of(first));
                order.addAll(tail);
                out.add(order);
            }
        }
        return out;
    }

    /** How many requests the stand-in has had: a mark to count the calls made after it. */
    static int mark() {
        return standIn.count(anyRequestedFor(anyUrl()));
    }

    /** The requests made to this path after the mark, oldest first. */
    static List<LoggedRequest> since(int mark, String path) {
        List<LoggedRequest> all = standIn.calls(anyRequestedFor(anyUrl()));
        return all.subList(mark, all.size()).stream().filter(r -> r.getUrl().equals(path)
                || r.getUrl().startsWith(path + "?")).toList();
    }

    /** Refuses a request as the ledger does: a problem naming the field and what was wrong with it. */
    static StubMapping refusing(MappingBuilder request, int status, String title, String field, String detail) {
        Map<String, Object> problem = new LinkedHashMap<>();
        problem.put("title", title);
        problem.put("status", status);
        problem.put("field", field);
        problem.put("detail", detail);
        return standIn.answer(request, StandIn.json(status, problem).withHeader("Content-Type",
                "application/problem+json"));
    }

    /** Answers with a 500 until {@link #remove}d, ahead of the read's own answer. */
    static StubMapping failing(MappingBuilder request) {
        return standIn.answer(request.atPriority(1), StandIn.problem(500, "Internal Server Error"));
    }

    static void remove(StubMapping stub) {
        standIn.server().removeStubMapping(stub);
    }

    static List<LoggedRequest> calls(RequestPatternBuilder requests) {
        return standIn.calls(requests);
    }

    /**
     * Whether a holdings read's body is the one that places a burning SLO's pods on their nodes for the changes before
     * it: its window is the look-back before the status, one day by default. Tenant reads span hours.
     */
    static boolean placesForChanges(String body) {
        io.restassured.path.json.JsonPath asked = new io.restassured.path.json.JsonPath(body);
        return java.time.Duration.between(Instant.parse(asked.getString("from")), Instant.parse(asked.getString("to")))
                .equals(java.time.Duration.ofDays(1));
    }
}
