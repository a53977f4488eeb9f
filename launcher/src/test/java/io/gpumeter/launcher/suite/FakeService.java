package io.gpumeter.launcher.suite;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.TreeMap;

/**
 * Stands in for a packaged service: shows its environment on QUARKUS_HTTP_PORT and answers /q/health/ready on
 * QUARKUS_MANAGEMENT_PORT only, as the services do, both on QUARKUS_HTTP_HOST (every address when unset).
 * <p>
 * It is a process of its own, started and stopped by the suite under test, which waits for it to be ready, and it
 * stays on the JDK's server: a fresh JVM answered ready in 3.7 to 4.4 s on common's stand-in server against 0.4 to
 * 0.8 s on this one, and the suite's tests start one 16 times.
 */
public final class FakeService {

    private FakeService() {
    }

    public static void main(String[] args) throws IOException {
        if ("true".equals(System.getenv("FAKE_FAIL"))) {
            System.out.println("fake service refusing to start: FAKE_FAIL is set");
            System.exit(3);
        }
        int port = Integer.parseInt(System.getenv("QUARKUS_HTTP_PORT"));
        String host = System.getenv("QUARKUS_HTTP_HOST");
        int managementPort = Integer.parseInt(System.getenv("QUARKUS_MANAGEMENT_PORT"));
        HttpServer management = HttpServer.create(host == null ? new InetSocketAddress(managementPort)
                : new InetSocketAddress(host, managementPort), 0);
        management.createContext("/q/health/ready", exchange -> reply(exchange, "{\"status\":\"UP\"}"));
        management.start();
        HttpServer server = HttpServer.create(host == null ? new InetSocketAddress(port) : new InetSocketAddress(host, port), 0);
        server.createContext("/env", exchange -> {
            StringBuilder body = new StringBuilder();
            new TreeMap<>(System.getenv()).forEach((k, v) -> {
                if (k.startsWith("QUARKUS_") || k.startsWith("GPUMETER_") || k.startsWith("MP_")) {
                    body.append(k).append('=').append(v).append('\n');
                }
            });
            reply(exchange, body.toString());
        });
        server.start();
        System.out.println("fake service up on port " + port);
    }

    private static void reply(HttpExchange exchange, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(200, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
