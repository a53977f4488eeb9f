package io.gpumeter.alert.rest;

import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import io.gpumeter.common.testing.StandIn;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;

/**
 * The two services that diagnose a triage's subject, the ledger and slo-service, each a {@link StandIn} of its own:
 * GET /api/v1/triage/diagnosis answers what the test put there for the subject the query names ("pod=ns/name",
 * "node=name", "service=ns/name"), anything else the framework's own 404, as a service without that endpoint. Every
 * call is in {@link #CALLS}, in the order received, with its query and Authorization header.
 */
public class StandInDiagnosers implements QuarkusTestResourceLifecycleManager {

    /** A canned answer. */
    public record Answer(int status, String body) {
    }

    /** One call as received. */
    public record Call(String service, String method, String path, Map<String, String> query, String authorization) {
    }

    /** The answers of one service, by the subject the query names. */
    public static final class Answers {
        private final String service;

        private Answers(String service) {
            this.service = service;
        }

        public void put(String subject, Answer answer) {
            int eq = subject.indexOf('=');
            String field = subject.substring(0, eq);
            String name = subject.substring(eq + 1);
            int slash = name.indexOf('/');
            MappingBuilder request = get(urlPathEqualTo(PATH))
                    .withQueryParam(field, equalTo(slash < 0 ? name : name.substring(slash + 1)))
                    .withQueryParam("namespace", slash < 0 ? absent() : equalTo(name.substring(0, slash)));
            SERVERS.get(service).answer(request, WireMock.aResponse().withStatus(answer.status()).withHeader("Content-Type",
                    answer.status() < 300 ? "application/json" : "application/problem+json").withBody(answer.body()));
        }
    }

    static final String PATH = "/api/v1/triage/diagnosis";
    private static final Map<String, StandIn> SERVERS = new LinkedHashMap<>();
    static final Answers LEDGER = new Answers("ledger");
    static final Answers SLO = new Answers("slo");
    /** Both services' calls, oldest first, read from their journals. */
    static final List<Call> CALLS = new AbstractList<>() {
        @Override
        public Call get(int index) {
            return calls().get(index);
        }

        @Override
        public int size() {
            return calls().size();
        }
    };

    @Override
    public Map<String, String> start() {
        SERVERS.put("ledger", StandIn.start());
        SERVERS.put("slo", StandIn.start());
        reset();
        return Map.of("quarkus.rest-client.ledger.url", SERVERS.get("ledger").url(),
                "quarkus.rest-client.slo.url", SERVERS.get("slo").url());
    }

    private static List<Call> calls() {
        List<Map.Entry<String, LoggedRequest>> all = new ArrayList<>();
        SERVERS.forEach((service, server) -> server.calls(anyRequestedFor(anyUrl()))
                .forEach(r -> all.add(Map.entry(service, r))));
        all.sort(Comparator.comparing(e -> e.getValue().getLoggedDate()));
        return all.stream().map(e -> {
            LoggedRequest r = e.getValue();
            Map<String, String> query = new LinkedHashMap<>();
            r.getQueryParams().forEach((name, value) -> query.put(name, value.firstValue()));
            String path = r.getUrl().contains("?") ? r.getUrl().substring(0, r.getUrl().indexOf('?')) : r.getUrl();
            return new Call(e.getKey(), r.getMethod().getName(), path, query, r.getHeader("Authorization"));
        }).toList();
    }

    /** No answers and no calls: every path answers 404 as a service without the endpoint does. */
    static void reset() {
        SERVERS.values().forEach(server -> {
            server.reset();
            server.answer(WireMock.any(anyUrl()).atPriority(10), WireMock.aResponse().withStatus(404)
                    .withHeader("Content-Type", "application/problem+json")
                    .withBody("{\"type\":\"about:blank\",\"title\":\"Not Found\",\"status\":404,"
                            + "\"detail\":\"There is nothing at this path.\"}"));
        });
    }

    @Override
    public void stop() {
        SERVERS.values().forEach(StandIn::close);
        SERVERS.clear();
    }
}
