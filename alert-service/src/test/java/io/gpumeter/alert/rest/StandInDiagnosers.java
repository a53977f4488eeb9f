package io.gpumeter.alert.rest;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Stand-ins for the two services that diagnose a triage's subject, each on its own free port: the ledger and
 * slo-service. Each answers GET /api/v1/triage/diagnosis with what the test put there for the subject the query
 * names ("pod=ns/name", "node=name", "service=ns/name"), and anything else with the framework's own 404, as a service
 * without that endpoint. Every call is recorded with its query and Authorization header.
 */
public class StandInDiagnosers implements QuarkusTestResourceLifecycleManager {

    /** A canned answer. */
    public record Answer(int status, String body) {
    }

    /** One call as received. */
    public record Call(String service, String method, String path, Map<String, String> query, String authorization) {
    }

    static final String PATH = "/api/v1/triage/diagnosis";
    static final Map<String, Answer> LEDGER = new ConcurrentHashMap<>();
    static final Map<String, Answer> SLO = new ConcurrentHashMap<>();
    static final List<Call> CALLS = new CopyOnWriteArrayList<>();

    private HttpServer ledger;
    private HttpServer slo;

    @Override
    public Map<String, String> start() {
        ledger = serve("ledger", LEDGER);
        slo = serve("slo", SLO);
        return Map.of("quarkus.rest-client.ledger.url", "http://127.0.0.1:" + ledger.getAddress().getPort(),
                "quarkus.rest-client.slo.url", "http://127.0.0.1:" + slo.getAddress().getPort());
    }

    private static HttpServer serve(String service, Map<String, Answer> answers) {
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", exchange -> handle(service, answers, exchange));
        server.start();
        return server;
    }

    private static void handle(String service, Map<String, Answer> answers, HttpExchange exchange) throws IOException {
        Map<String, String> query = query(exchange.getRequestURI().getRawQuery());
        String path = exchange.getRequestURI().getPath();
        CALLS.add(new Call(service, exchange.getRequestMethod(), path, query,
                exchange.getRequestHeaders().getFirst("Authorization")));
        Answer answer = path.equals(PATH) ? answers.get(subject(query)) : null;
        if (answer == null) {
            answer = new Answer(404, "{\"type\":\"about:blank\",\"title\":\"Not Found\",\"status\":404,"
                    + "\"detail\":\"There is nothing at this path.\"}");
        }
        byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type",
                answer.status() < 300 ? "application/json" : "application/problem+json");
        exchange.sendResponseHeaders(answer.status(), bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    /** "pod=acme-ml/train-0", "node=gpu-1": the subject a query names, as tests key their answers. */
    static String subject(Map<String, String> query) {
        for (String field : List.of("pod", "workload", "podGroup", "node", "service")) {
            String name = query.get(field);
            if (name != null) {
                String ns = query.get("namespace");
                return field + "=" + (ns == null ? "" : ns + "/") + name;
            }
        }
        return "";
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String pair : raw == null ? new String[0] : raw.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                out.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                        URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return out;
    }

    static void reset() {
        LEDGER.clear();
        SLO.clear();
        CALLS.clear();
    }

    @Override
    public void stop() {
        ledger.stop(0);
        slo.stop(0);
    }
}
