package io.gpumeter.console;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.Optional;

/** Where the five services are, how long a call may take, and how the session cookie and the one-time link work. */
@ConfigMapping(prefix = "gpumeter.console")
public interface ConsoleConfig {

    String collectorUrl();

    String ledgerUrl();

    String sloUrl();

    String alertUrl();

    String billingUrl();

    @WithDefault("20s")
    Duration callTimeout();

    @WithDefault("false")
    boolean secureCookie();

    Signin signin();

    /** The one-time sign-in link's code and the token it signs in with. */
    interface Signin {
        Optional<String> code();

        Optional<String> token();
    }

    default String url(Backend backend) {
        return switch (backend) {
            case COLLECTOR -> collectorUrl();
            case LEDGER -> ledgerUrl();
            case SLO -> sloUrl();
            case ALERT -> alertUrl();
            case BILLING -> billingUrl();
        };
    }
}
