package io.gpumeter.mcp.reads;

import io.gpumeter.common.security.Role;
import io.gpumeter.common.security.Tokens;
import io.gpumeter.mcp.auth.McpCaller;
import io.gpumeter.mcp.config.McpConfig;
import io.gpumeter.mcp.tools.Backend;
import jakarta.enterprise.context.ApplicationScoped;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.NumericDate;
import org.jose4j.lang.JoseException;

import java.security.PrivateKey;
import java.security.interfaces.RSAPrivateCrtKey;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The token a tool presents to a service on its caller's behalf (docs/adr/0026): never the caller's own, but one
 * minted for the same subject, with the caller's reading rights only — its one tenant for a tenant-confined caller,
 * {@code reader} for any fleet role, since every read a fleet role may make a reader may make too — addressed to the
 * services the tools read, naming this server as the actor ({@code act}, RFC 8693), living a few minutes and never
 * past the caller's own token.
 */
@ApplicationScoped
public class DelegatedTokens {

    static final String ACTOR = "mcp";

    private final Optional<PrivateKey> key;
    private final McpConfig config;
    private final Clock clock;

    public DelegatedTokens(McpConfig config, Clock clock) {
        this.config = config;
        this.clock = clock;
        this.key = config.signingKey().map(String::strip).filter(k -> !k.isEmpty()).map(Tokens::privateKey);
    }

    /** The groups a call for {@code caller} carries: its tenant when confined, else {@code reader}. */
    public static List<String> groups(McpCaller caller) {
        return caller.caller().confinedTo().map(t -> List.of(Role.TENANT_PREFIX + t)).orElse(List.of("reader"));
    }

    /** A signed token for a call on {@code caller}'s behalf; empty when no signing key is configured. */
    public Optional<String> mint(McpCaller caller) {
        if (key.isEmpty()) {
            return Optional.empty();
        }
        long now = clock.instant().getEpochSecond();
        long expires = Math.min(now + Math.max(1, config.delegatedTokenLifetime().toSeconds()),
                caller.expires().getEpochSecond());
        JwtClaims claims = new JwtClaims();
        claims.setIssuer(Tokens.ISSUER);
        claims.setSubject(caller.subject());
        claims.setClaim("upn", caller.subject());
        claims.setAudience(Arrays.stream(Backend.values()).map(Backend::id).toList());
        claims.setIssuedAt(NumericDate.fromSeconds(now));
        claims.setExpirationTime(NumericDate.fromSeconds(expires));
        claims.setGeneratedJwtId();
        claims.setStringListClaim("groups", groups(caller));
        claims.setClaim("act", Map.of("sub", ACTOR));
        JsonWebSignature jws = new JsonWebSignature();
        jws.setPayload(claims.toJson());
        jws.setKey(key.get());
        if (key.get() instanceof RSAPrivateCrtKey crt) {
            jws.setKeyIdHeaderValue(Tokens.keyId(Tokens.publicKey(crt)));
        }
        jws.setAlgorithmHeaderValue(AlgorithmIdentifiers.RSA_USING_SHA256);
        jws.setHeader("typ", "JWT");
        try {
            return Optional.of(jws.getCompactSerialization());
        } catch (JoseException e) {
            throw new IllegalStateException("could not sign a call's token", e);
        }
    }
}
