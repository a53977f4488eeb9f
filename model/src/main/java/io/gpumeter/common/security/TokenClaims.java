package io.gpumeter.common.security;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * What a bearer token says of its holder, read from its claims before (or without) checking its signature: the
 * console reads a pasted token with this, shows it only once the suite's key verified it, and then holds it to the
 * services' {@link TokenRules}. The claims alone decide nothing a service would not decide again: every figure comes
 * from a service that verifies the token itself.
 *
 * @param token    the compact token, without a {@code Bearer } prefix
 * @param issuedAt seconds since the epoch, 0 when the token carries no {@code iat}
 */
public record TokenClaims(String token, String subject, List<String> groups, long issuedAt, Instant expires) {

    /** Read as a tree, which needs no reflection (native images). */
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String NOT_CLAIMS = "That is not a token: its middle part is not readable claims.";

    public TokenClaims {
        groups = List.copyOf(groups);
    }

    /** The token's claims, or empty with the reason when the text is not a token at all or has expired at {@code now}. */
    public static Read read(String text, Instant now) {
        String token = text == null ? "" : text.strip();
        if (token.startsWith("Bearer ") || token.startsWith("bearer ")) {
            token = token.substring(7).strip();
        }
        String[] parts = token.split("\\.", -1);
        if (parts.length != 3 || parts[1].isEmpty() || !token.matches("[A-Za-z0-9_\\-.]+")) {
            return Read.refused("That is not a token: a token is three dot-separated parts, as ./gpumeter token prints.");
        }
        JsonNode claims;
        try {
            claims = JSON.readTree(new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8));
        } catch (IllegalArgumentException | JacksonException e) {
            return Read.refused(NOT_CLAIMS);
        }
        if (claims == null || !claims.isObject()) {
            return Read.refused(NOT_CLAIMS);
        }
        JsonNode exp = claims.get("exp");
        if (exp == null || !exp.canConvertToLong()) {
            return Read.refused("That token has no expiry (exp); the services refuse such tokens.");
        }
        Instant expires = Instant.ofEpochSecond(exp.asLong());
        if (!expires.isAfter(now)) {
            return Read.refused("That token expired at " + expires + "; sign in with a fresh one (./gpumeter token).");
        }
        List<String> groups = new ArrayList<>();
        claims.path("groups").forEach(g -> groups.add(g.asText()));
        JsonNode iat = claims.get("iat");
        String subject = claims.hasNonNull("sub") ? claims.get("sub").asText()
                : claims.hasNonNull("upn") ? claims.get("upn").asText() : "(no subject)";
        long issuedAt = iat != null && iat.canConvertToLong() ? iat.asLong() : 0;
        return new Read(Optional.of(new TokenClaims(token, subject, groups, issuedAt, expires)), null);
    }

    /** The holder's roles and tenant, as the services' access filter reads them. */
    public Caller caller() {
        return Caller.of(groups);
    }

    /**
     * Why the services would refuse this token whatever it asks, if they would: its lifetime, an ingest token
     * holding more, a tenant token naming several tenants. The audience of a {@code service} token is each service's
     * own check, as a console forwards one token to all of them.
     */
    public Optional<TokenRules.Refusal> refusal(Duration longestLifetime) {
        Caller caller = caller();
        return TokenRules.lifetime(issuedAt, expires.getEpochSecond(), longestLifetime)
                .or(() -> TokenRules.roles(caller))
                .or(() -> TokenRules.tenancy(caller));
    }

    /** Claims read, or why there are none. */
    public record Read(Optional<TokenClaims> claims, String problem) {

        static Read refused(String problem) {
            return new Read(Optional.empty(), problem);
        }
    }
}
