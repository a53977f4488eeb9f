package io.gpumeter.console;

import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.http.Request;
import com.github.tomakehurst.wiremock.matching.MatchResult;
import com.github.tomakehurst.wiremock.matching.ValueMatcher;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import com.github.tomakehurst.wiremock.stubbing.StubMapping;

import java.net.URI;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;

/**
 * The five services as the console's tests answer them, each on the one stand-in server of the suite's tests
 * ({@link io.gpumeter.common.testing.StandIn}, WireMock): a path answers its canned reply — the tenant's own where one
 * is given, for tokens confined to a tenant by the services' rule — every canned JSON answer of a read a service's
 * tests recorded is first checked against that example ({@link Examples}), and every request stays in WireMock's
 * journal, read back in the order it came as {@link #seen()}. Two books answer by what they are asked
 * ({@link Book}): the ledger's change book and alert-service's reviews.
 */
final class StandIn {

    /** One answer: status, content type, body and any other headers (a list's X-Total-Count and Link). */
    record Reply(int status, String type, String body, Map<String, String> headers) {
        Reply(int status, String type, String body) {
            this(status, type, body, Map.of());
        }

        static Reply json(String body) {
            return new Reply(200, "application/json", body);
        }

        /** The connection is closed without an answer, as a service that crashes mid-request leaves it. */
        static Reply hangUp() {
            return new Reply(-1, "", "");
        }

        static Reply problem(int status, String title, String detail) {
            return new Reply(status, "application/problem+json", "{\"type\":\"about:blank\",\"title\":\"" + title
                    + "\",\"status\":" + status + ",\"detail\":\"" + detail + "\"}");
        }

        ResponseDefinitionBuilder response() {
            if (status < 0) {
                return io.gpumeter.common.testing.StandIn.dropped();
            }
            ResponseDefinitionBuilder r = WireMock.aResponse().withStatus(status).withHeader("Content-Type", type).withBody(body);
            headers.forEach(r::withHeader);
            return r;
        }
    }

    /** A request as a service saw it, with its body (empty for a GET). */
    record Seen(Backend backend, String pathAndQuery, String authorization, String body) {
    }

    /** An answer worked out from the request by a book; null when the book has none for it (a 404 then). */
    interface Handler {
        Reply answer(String path, String query, String body, boolean tenant);
    }

    /** Overrides come first, then the books, then a query's reply, a tenant's, the path's; nothing else is a 404. */
    private static final int OVERRIDE = 1;
    private static final int BOOK = 2;
    private static final int QUERY = 3;
    private static final int TENANT = 4;
    private static final int PATH = 5;
    private static final int NOTHING = 10;

    /** A token the services confine to one tenant: its requests take the tenant's replies. */
    static final ValueMatcher<Request> TENANT_TOKEN = request -> MatchResult.of(tenant(request));
    /** A token that reads the fleet. */
    static final ValueMatcher<Request> FLEET_TOKEN = request -> MatchResult.of(!tenant(request));

    private static final Map<Backend, io.gpumeter.common.testing.StandIn> SERVERS = new EnumMap<>(Backend.class);
    private static final Map<String, StubMapping> REPLIES = new ConcurrentHashMap<>();
    private static final Map<String, StubMapping> OVERRIDES = new ConcurrentHashMap<>();

    private StandIn() {
    }

    static synchronized Map<Backend, String> start() {
        Map<Backend, String> urls = new EnumMap<>(Backend.class);
        for (Backend b : Backend.values()) {
            io.gpumeter.common.testing.StandIn server = SERVERS.computeIfAbsent(b, x -> {
                io.gpumeter.common.testing.StandIn s = io.gpumeter.common.testing.StandIn.start(new Book(x));
                s.answer(any(urlPathMatching("/.*")).atPriority(NOTHING), Reply.problem(404, "Not Found", "no fixture for this path").response());
                return s;
            });
            urls.put(b, server.url());
        }
        Fixtures.install();
        return urls;
    }

    /** Where {@code backend}'s stand-in answers, e.g. {@code http://127.0.0.1:41234}. */
    static synchronized String url(Backend backend) {
        return SERVERS.get(backend).url();
    }

    static synchronized void stop() {
        SERVERS.values().forEach(io.gpumeter.common.testing.StandIn::close);
        SERVERS.clear();
        REPLIES.clear();
        OVERRIDES.clear();
    }

    /**
     * What {@code backend} answers on {@code path}; {@code forTenant} for tenant tokens only. A path with its query
     * ({@code /a?at=…}, encoded as sent) answers that query only, before the path's own answer.
     */
    static void reply(Backend backend, String path, boolean forTenant, Reply reply) {
        Examples.check(backend, path, reply);
        boolean query = path.contains("?");
        MappingBuilder route = any(query ? urlEqualTo(path) : urlPathEqualTo(path)).atPriority(query ? QUERY : forTenant ? TENANT : PATH);
        if (forTenant) {
            route = route.andMatching(TENANT_TOKEN);
        }
        replace(REPLIES, backend + " " + path + (forTenant ? " tenant" : ""), backend, route.willReturn(reply.response()));
    }

    /**
     * What {@code backend} answers on {@code path} when the query holds these parameters (decoded), whatever else it
     * holds; before the path's own answer.
     */
    static void reply(Backend backend, String path, Map<String, String> query, boolean forTenant, Reply reply) {
        Examples.check(backend, path, reply);
        MappingBuilder route = any(urlPathEqualTo(path)).atPriority(QUERY).andMatching(forTenant ? TENANT_TOKEN : FLEET_TOKEN);
        for (Map.Entry<String, String> p : new java.util.TreeMap<>(query).entrySet()) {
            route = route.withQueryParam(p.getKey(), WireMock.equalTo(p.getValue()));
        }
        replace(REPLIES, backend + " " + path + " " + new java.util.TreeMap<>(query) + (forTenant ? " tenant" : ""), backend,
                route.willReturn(reply.response()));
    }

    /** A route said in WireMock's own words, kept under {@code key} until another route takes that key. */
    static void stub(Backend backend, String key, MappingBuilder route) {
        replace(REPLIES, backend + " " + key, backend, route);
    }

    /** Whether the request's token is confined to one tenant by the services' rule. */
    static boolean tenant(Request request) {
        String auth = request.getHeader("Authorization");
        return auth != null && auth.startsWith("Bearer ") && Fixtures.isTenant(auth.substring("Bearer ".length()));
    }

    /** Answers worked out by {@code handler} for every path of {@code backend} matching {@code pathPattern}. */
    static void handle(Backend backend, String pathPattern, Handler handler) {
        Book.HANDLERS.put(backend + " " + pathPattern, handler);
        replace(REPLIES, backend + " book " + pathPattern, backend, any(urlPathMatching(pathPattern)).atPriority(BOOK)
                .willReturn(WireMock.aResponse().withTransformers(Book.NAME).withTransformerParameter("handler", pathPattern)));
    }

    /** An answer for every token until {@link #reset()}. */
    static void override(Backend backend, String path, Reply reply) {
        Examples.check(backend, path, reply);
        replace(OVERRIDES, backend + " " + path, backend, any(urlPathEqualTo(path)).atPriority(OVERRIDE).willReturn(reply.response()));
    }

    /** The overrides and the journal forgotten, the books as they start. */
    static void reset() {
        OVERRIDES.forEach((key, stub) -> server(key).server().removeStub(stub));
        OVERRIDES.clear();
        forget();
        ChangeBookStandIn.reset();
        ReviewStandIn.reset();
    }

    /** Every request the services saw since the last {@link #reset()} or {@link #forget()}, oldest first. */
    static List<Seen> seen() {
        return SERVERS.entrySet().stream().flatMap(e -> e.getValue().server().getAllServeEvents().stream()
                        .map(event -> new Timed(event.getRequest().getLoggedDate().getTime(), seen(e.getKey(), event))))
                .sorted(Comparator.comparingLong(Timed::at)).map(Timed::seen).toList();
    }

    /** The journal forgotten, the replies kept. */
    static void forget() {
        SERVERS.values().forEach(s -> s.server().resetRequests());
    }

    private record Timed(long at, Seen seen) {
    }

    private static Seen seen(Backend backend, ServeEvent event) {
        URI url = URI.create(event.getRequest().getUrl());
        return new Seen(backend, url.getRawPath() + (url.getRawQuery() != null ? "?" + url.getRawQuery() : ""),
                event.getRequest().getHeader("Authorization"), event.getRequest().getBodyAsString());
    }

    private static void replace(Map<String, StubMapping> stubs, String key, Backend backend, MappingBuilder route) {
        StubMapping old = stubs.remove(key);
        io.gpumeter.common.testing.StandIn server = SERVERS.get(backend);
        if (old != null) {
            server.server().removeStub(old);
        }
        stubs.put(key, server.server().stubFor(route));
    }

    private static io.gpumeter.common.testing.StandIn server(String key) {
        return SERVERS.get(Backend.valueOf(key.substring(0, key.indexOf(' '))));
    }
}
