package io.gpumeter.console;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.net.URI;
import java.time.Duration;
import java.util.Optional;

/**
 * Where the five services are, how long a call may take, how long a session lasts and what seals its cookie, and the
 * one-time link.
 */
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

    SessionSettings session();

    /** The one-time sign-in link's code and the token it signs in with. */
    interface Signin {
        Optional<String> code();

        Optional<String> token();
    }

    /** How long a session lasts, the key that seals its cookie, and the replicas told of a sign-out (docs/adr/0017). */
    interface SessionSettings {
        /**
         * At least 32 characters of randomness, the same for every replica (GPUMETER_CONSOLE_SESSION_KEY). Unset: a
         * random key of this process, so sessions end when it restarts and no other replica opens its cookies.
         */
        Optional<String> key();

        /** A session not used for this long has ended. */
        @WithDefault("1h")
        Duration idle();

        /** A session ends this long after sign-in, however busy. */
        @WithDefault("8h")
        Duration absolute();

        /**
         * The other replicas' management address, e.g. {@code http://console-peers:9086}: each address the host
         * resolves to is told of every sign-out and asked at start-up for the sessions signed out so far. Unset: one
         * replica.
         */
        Optional<URI> peers();
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
