package io.gpumeter.common.testing;

import io.gpumeter.common.security.Tokens;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.time.Duration;
import java.util.List;

/** Tokens signed with the test key pair that {@link AuthEnabled} verifies. */
public final class TestTokens {

    private static final PrivateKey KEY = Tokens.privateKey(resource("/gpumeter-test-private.pem"));

    /** The token a service under test presents to the services it calls. */
    public static final String SERVICE_TOKEN = Tokens.mint(KEY, "service-under-test", List.of("service"), Duration.ofDays(1));

    private TestTokens() {
    }

    public static String bearer(String... groups) {
        return "Bearer " + Tokens.mint(KEY, "test", List.of(groups), Duration.ofMinutes(10));
    }

    static String resource(String name) {
        try (InputStream in = TestTokens.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException(name + " is missing from the test-jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
