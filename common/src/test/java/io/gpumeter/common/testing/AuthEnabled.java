package io.gpumeter.common.testing;

import io.quarkus.test.junit.QuarkusTestProfile;

import java.util.Map;

/**
 * Runs a service with authentication on, verifying tokens against the test key pair in this test-jar (the private
 * half signs {@link TestTokens}; neither is used outside tests), presenting a {@code service} token to the
 * services it calls.
 */
public class AuthEnabled implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("gpumeter.auth.enabled", "true",
                "mp.jwt.verify.publickey.location", "gpumeter-test-public.pem",
                "gpumeter.auth.service-token", TestTokens.SERVICE_TOKEN);
    }
}
