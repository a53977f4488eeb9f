package io.gpumeter.common.security;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a token whose signature checked out must satisfy beyond its roles, one rule for the services (their token
 * filter) and the console (before it signs anyone in): it carries {@code iat} and {@code exp} and lives no longer
 * than the longest lifetime allowed ({@code gpumeter.auth.max-token-lifetime}); an {@code ingest} token holds nothing
 * else; a tenant-only token names exactly one tenant; a {@code service} token is addressed to the service reading it.
 */
public final class TokenRules {

    /** A refusal: 401 when the token itself is unacceptable, 403 when what it holds is. */
    public record Refusal(int status, String detail) {
    }

    private TokenRules() {
    }

    /** Both instants present (seconds since the epoch; 0 or less is absent) and exp − iat within {@code longest}. */
    public static Optional<Refusal> lifetime(long issuedAt, long expires, Duration longest) {
        if (issuedAt <= 0 || expires <= 0) {
            return Optional.of(new Refusal(401, "The bearer token must carry both iat and exp."));
        }
        if (expires - issuedAt > longest.toSeconds()) {
            return Optional.of(new Refusal(401, "The bearer token is valid for " + days(expires - issuedAt)
                    + " days; this service accepts tokens of at most " + days(longest.toSeconds()) + " days "
                    + "(gpumeter.auth.max-token-lifetime). Ask for a shorter one."));
        }
        return Optional.empty();
    }

    /** An ingest token holds the ingest role only, so a node's pusher never reads. */
    public static Optional<Refusal> roles(Caller caller) {
        if (caller.roles().contains(Role.INGEST) && (caller.roles().size() > 1 || !caller.tenants().isEmpty())) {
            return Optional.of(new Refusal(403, "An ingest token holds the ingest role only."));
        }
        return Optional.empty();
    }

    /** A tenant-only token names one tenant: with several, whose rows it reads would be a guess. */
    public static Optional<Refusal> tenancy(Caller caller) {
        return caller.ambiguous() ? Optional.of(new Refusal(403, Caller.AMBIGUOUS)) : Optional.empty();
    }

    /**
     * A service token's {@code aud} names the service reading it ({@code own}, its {@code gpumeter.auth.audience});
     * people's tokens need no audience, so a console may forward them to any service.
     */
    public static Optional<Refusal> audience(Caller caller, Set<String> addressed, Optional<String> own) {
        if (!caller.roles().contains(Role.SERVICE)) {
            return Optional.empty();
        }
        if (own.isEmpty()) {
            return Optional.of(new Refusal(403, "This service has no gpumeter.auth.audience, so it accepts no service token."));
        }
        if (!addressed.contains(own.get())) {
            return Optional.of(new Refusal(403, "This service token is addressed to " + new TreeSet<>(addressed)
                    + ", not to '" + own.get() + "': each service presents a token whose aud names the services it calls."));
        }
        return Optional.empty();
    }

    private static String days(long seconds) {
        return BigDecimal.valueOf(seconds).divide(BigDecimal.valueOf(86_400), 1, RoundingMode.HALF_UP)
                .stripTrailingZeros().toPlainString();
    }
}
