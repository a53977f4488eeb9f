package io.gpumeter.console;

import io.gpumeter.common.testing.TestTokens;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Starts the stand-in services and another replica, and points the console at them, with a one-time sign-in code,
 * the suite's public key and the key that seals sessions.
 */
public class StandInResource implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
        Map<String, String> config = new HashMap<>();
        StandIn.start().forEach((backend, url) -> config.put("gpumeter.console." + backend.name().toLowerCase(Locale.ROOT) + "-url", url));
        config.put("gpumeter.console.signin.code", Fixtures.SIGNIN_CODE);
        config.put("gpumeter.console.signin.token", Fixtures.SIGNIN_TOKEN);
        config.put("gpumeter.console.call-timeout", "5s");
        config.put("mp.jwt.verify.publickey", TestTokens.publicKeyPem());
        config.put("gpumeter.console.session.key", Fixtures.SESSION_KEY);
        config.put("gpumeter.console.session.peers", PeerStandIn.start());
        return config;
    }

    @Override
    public void stop() {
        StandIn.stop();
        PeerStandIn.stop();
    }
}
