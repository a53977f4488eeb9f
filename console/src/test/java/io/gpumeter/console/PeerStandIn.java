package io.gpumeter.console;

import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Another replica of the console, as the one under test sees it on the management port: it records the sign-outs it
 * is told of, and answers the sessions it knows to be signed out, one of them a session signed in and out there.
 */
final class PeerStandIn {

    static final List<String> ANNOUNCED = new CopyOnWriteArrayList<>();
    /** A live session of the admin that was signed out on the other replica before this one started. */
    static final String SIGNED_OUT_THERE;
    /** A live session of the admin the other replica knows nothing about. */
    static final String LIVE_THERE;
    private static final String LIST;
    private static HttpServer server;

    static {
        Sealer sealer = new Sealer(Fixtures.SESSION_KEY);
        SignedOut there = new SignedOut();
        Tickets tickets = new Tickets(sealer, Duration.ofHours(1), Duration.ofHours(8), there);
        Instant now = Instant.now();
        Viewer admin = Viewer.parse(Fixtures.ADMIN, now).viewer().orElseThrow();
        SIGNED_OUT_THERE = tickets.issue(admin, now);
        LIVE_THERE = tickets.issue(admin, now);
        SessionTicket out = tickets.open(SIGNED_OUT_THERE, now).ticket();
        there.add(out.id(), tickets.end(out), now);
        LIST = there.sealed(sealer, now);
    }

    private PeerStandIn() {
    }

    static synchronized String start() {
        if (server == null) {
            try {
                server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            server.createContext(Peers.PATH, exchange -> {
                byte[] answer = new byte[0];
                int status = 204;
                if (exchange.getRequestMethod().equals("POST")) {
                    ANNOUNCED.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
                } else {
                    answer = LIST.getBytes(StandardCharsets.UTF_8);
                    status = 200;
                }
                exchange.sendResponseHeaders(status, status == 204 ? -1 : answer.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(answer);
                }
            });
            server.start();
        }
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    static synchronized void stop() {
        if (server != null) {
            server.stop(0);
            server = null;
        }
    }
}
