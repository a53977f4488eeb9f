package io.gpumeter.console;

import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

/**
 * The five services as fixed answers, one JDK HTTP server each: a path answers its fixture, a tenant token gets the
 * tenant's fixture where one is given, and every request is recorded with the token it carried.
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
    }

    /** A request as a service saw it, with its body (empty for a GET). */
    record Seen(Backend backend, String pathAndQuery, String authorization, String body) {
    }

    /** An answer worked out from the request, as a service's own logic would; null to leave it to the fixtures. */
    interface Handler {
        Reply answer(String path, String query, String body, boolean tenant);
    }

    private static final Map<Backend, HttpServer> SERVERS = new EnumMap<>(Backend.class);
    private static final Map<String, Reply> REPLIES = new ConcurrentHashMap<>();
    private static final Map<String, Reply> OVERRIDES = new ConcurrentHashMap<>();
    private static final Map<String, Handler> HANDLERS = new ConcurrentHashMap<>();
    static final List<Seen> SEEN = new CopyOnWriteArrayList<>();

    private StandIn() {
    }

    static synchronized Map<Backend, String> start() {
        Map<Backend, String> urls = new EnumMap<>(Backend.class);
        Fixtures.install();
        for (Backend b : Backend.values()) {
            HttpServer server = SERVERS.get(b);
            if (server == null) {
                try {
                    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                server.setExecutor(Executors.newFixedThreadPool(4));
                server.createContext("/", exchange -> {
                    String path = exchange.getRequestURI().getRawPath();
                    String query = exchange.getRequestURI().getRawQuery();
                    String auth = exchange.getRequestHeaders().getFirst("Authorization");
                    String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
                    SEEN.add(new Seen(b, path + (query != null ? "?" + query : ""), auth, body));
                    boolean tenant = auth != null && Fixtures.isTenant(auth.substring("Bearer ".length()));
                    Reply reply = OVERRIDES.get(key(b, path, false));
                    if (reply == null) {
                        reply = handled(b, path, query, body, tenant);
                    }
                    if (reply == null && query != null) {
                        reply = REPLIES.get(key(b, path + "?" + query, false));
                    }
                    if (reply == null && tenant) {
                        reply = REPLIES.get(key(b, path, true));
                    }
                    if (reply == null) {
                        reply = REPLIES.getOrDefault(key(b, path, false), Reply.problem(404, "Not Found", "no fixture for " + path));
                    }
                    if (reply.status() < 0) {
                        exchange.close();
                        return;
                    }
                    byte[] answer = reply.body().getBytes(StandardCharsets.UTF_8);
                    exchange.getResponseHeaders().set("Content-Type", reply.type());
                    reply.headers().forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
                    exchange.sendResponseHeaders(reply.status(), answer.length);
                    try (OutputStream out = exchange.getResponseBody()) {
                        out.write(answer);
                    }
                });
                server.start();
                SERVERS.put(b, server);
            }
            urls.put(b, "http://127.0.0.1:" + server.getAddress().getPort());
        }
        return urls;
    }

    /** Where {@code backend}'s stand-in answers, e.g. {@code http://127.0.0.1:41234}. */
    static synchronized String url(Backend backend) {
        return "http://127.0.0.1:" + SERVERS.get(backend).getAddress().getPort();
    }

    static synchronized void stop() {
        SERVERS.values().forEach(s -> s.stop(0));
        SERVERS.clear();
    }

    /**
     * What {@code backend} answers on {@code path}; {@code forTenant} for tenant tokens only. A path with its query
     * ({@code /a?at=…}, encoded as sent) answers that query only, before the path's own answer.
     */
    static void reply(Backend backend, String path, boolean forTenant, Reply reply) {
        REPLIES.put(key(backend, path, forTenant), reply);
    }

    /** Answers worked out by {@code handler} for every path of {@code backend} under {@code pathPrefix}. */
    static void handle(Backend backend, String pathPrefix, Handler handler) {
        HANDLERS.put(key(backend, pathPrefix, false), handler);
    }

    private static Reply handled(Backend backend, String path, String query, String body, boolean tenant) {
        for (Map.Entry<String, Handler> h : HANDLERS.entrySet()) {
            String prefix = h.getKey().substring(backend.toString().length() + 1);
            if (h.getKey().startsWith(backend + " ") && path.startsWith(prefix)) {
                Reply reply = h.getValue().answer(path, query, body, tenant);
                if (reply != null) {
                    return reply;
                }
            }
        }
        return null;
    }

    /** An answer for every token until {@link #reset()}. */
    static void override(Backend backend, String path, Reply reply) {
        OVERRIDES.put(key(backend, path, false), reply);
    }

    static void reset() {
        OVERRIDES.clear();
        SEEN.clear();
        ChangeBookStandIn.reset();
        ReviewStandIn.reset();
    }

    private static String key(Backend backend, String path, boolean tenant) {
        return backend + " " + path + (tenant ? " tenant" : "");
    }
}
