package io.gpumeter.mcp.auth;

import io.gpumeter.common.security.Caller;
import io.gpumeter.common.security.Role;
import io.gpumeter.common.security.TokenRules;
import io.smallrye.jwt.auth.principal.JWTParser;
import io.smallrye.jwt.auth.principal.ParseException;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;

/**
 * Verifies a caller's bearer token as every service does — SmallRye JWT with the services' settings (the suite's
 * key, issuer {@code gpumeter}, not expired), then the model's {@link TokenRules}: lifetime, an ingest token's
 * roles, one tenant, and a {@code service} token addressed to {@code mcp}. People's tokens need no audience, as at
 * every service. A token that reads nothing (ingest, or no role at all) is refused: every tool is a read.
 */
@ApplicationScoped
public class CallerCheck {

    private static final Logger LOG = Logger.getLogger(CallerCheck.class);

    /** The outcome: a caller, or the status and words of the refusal. */
    public sealed interface Outcome {
    }

    public record Accepted(McpCaller caller) implements Outcome {
    }

    /** @param error the RFC 6750 error code for {@code WWW-Authenticate}, null when no token was sent */
    public record Refused(int status, String error, String detail) implements Outcome {
    }

    private final JWTParser parser;
    private final Optional<String> audience;
    private final Duration maxLifetime;

    public CallerCheck(JWTParser parser, @ConfigProperty(name = "gpumeter.auth.audience") Optional<String> audience,
                       @ConfigProperty(name = "gpumeter.auth.max-token-lifetime", defaultValue = "P30D") Duration maxLifetime) {
        this.parser = parser;
        this.audience = audience;
        this.maxLifetime = maxLifetime;
    }

    public Outcome check(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)
                || authorization.substring(7).isBlank()) {
            return new Refused(401, null, "Send a bearer token in the Authorization header: a token of the suite "
                    + "(./gpumeter token), as its services take.");
        }
        JsonWebToken jwt;
        try {
            jwt = parser.parse(authorization.substring(7).strip());
        } catch (ParseException e) {
            LOG.debugf(e, "a token was refused");
            return new Refused(401, "invalid_token", "The bearer token is not valid: it must be a JWT signed with the "
                    + "suite's key, from issuer gpumeter, and not expired.");
        }
        Caller caller = Caller.of(Optional.ofNullable(jwt.getGroups()).orElse(Set.of()));
        Optional<TokenRules.Refusal> refusal = TokenRules.lifetime(jwt.getIssuedAtTime(), jwt.getExpirationTime(), maxLifetime)
                .or(() -> TokenRules.roles(caller))
                .or(() -> TokenRules.tenancy(caller))
                .or(() -> TokenRules.audience(caller, Optional.ofNullable(jwt.getAudience()).orElse(Set.of()), audience));
        if (refusal.isPresent()) {
            TokenRules.Refusal r = refusal.get();
            return new Refused(r.status(), r.status() == 401 ? "invalid_token" : "insufficient_scope", r.detail());
        }
        if (caller.roles().stream().noneMatch(role -> role.readsEveryTenant() || role == Role.TENANT)) {
            return new Refused(403, "insufficient_scope", "This token reads nothing: the tools are reads, for a "
                    + "person's token (admin, operator, reader, tenant:<name>) or a service token addressed to mcp.");
        }
        String subject = Optional.ofNullable(jwt.getSubject()).orElse(jwt.getName());
        return new Accepted(new McpCaller(subject, caller, Instant.ofEpochSecond(jwt.getExpirationTime())));
    }
}
