package io.gpumeter.mcp;

import io.gpumeter.common.testing.StandIn;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The four services the tools read, stood in by one WireMock server (their paths do not collide); the server under
 * test verifies tokens with the test key pair and signs its calls with the test key's private half.
 */
public class StandInServices implements QuarkusTestResourceLifecycleManager {

    /** Rows an answer carries in these tests: small, so that a cut list is easy to write by hand. */
    static final int ROWS = 3;

    static StandIn services;

    @Override
    public Map<String, String> start() {
        services = StandIn.start();
        return Map.of("quarkus.rest-client.ledger.url", services.url(),
                "quarkus.rest-client.slo.url", services.url(),
                "quarkus.rest-client.alert.url", services.url(),
                "quarkus.rest-client.billing.url", services.url(),
                "gpumeter.mcp.signing-key", resource("/gpumeter-test-private.pem"),
                "gpumeter.mcp.rows", Integer.toString(ROWS),
                "gpumeter.mcp.allowed-origins", "http://localhost:6274",
                "quarkus.http.cors.origins", "http://localhost:6274");
    }

    @Override
    public void stop() {
        if (services != null) {
            services.close();
        }
    }

    private static String resource(String name) {
        try (InputStream in = StandInServices.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException(name + " is not on the test class path (model's test jar)");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
