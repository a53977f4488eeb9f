package io.gpumeter.console;

import jakarta.enterprise.context.ApplicationScoped;
import org.jose4j.jwt.JwtClaims;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The sessions signed out while their cookie could still be used: each id is kept until the session's own end
 * (at most the absolute time after sign-in), after which its cookie is refused anyway. Held in memory and shared
 * with the other replicas by {@link Peers} as a sealed list (docs/adr/0017-console-sessions.md).
 */
@ApplicationScoped
public class SignedOut {

    static final String USE = "signed-out";

    private final Map<String, Instant> until = new ConcurrentHashMap<>();

    void add(String sessionId, Instant sessionEnd, Instant now) {
        if (sessionEnd.isAfter(now)) {
            until.merge(sessionId, sessionEnd, (a, b) -> a.isAfter(b) ? a : b);
        }
        forget(now);
    }

    boolean contains(String sessionId) {
        return until.containsKey(sessionId);
    }

    /** The list as another replica reads it: sealed, so that only a replica can read or add to it. */
    String sealed(Sealer sealer, Instant now) {
        forget(now);
        Map<String, Object> ids = new LinkedHashMap<>();
        until.forEach((id, end) -> ids.put(id, end.getEpochSecond()));
        JwtClaims claims = new JwtClaims();
        claims.setClaim("ids", ids);
        return sealer.seal(USE, claims);
    }

    /** Adds another replica's sealed list; false when it is not one. */
    boolean addSealed(Sealer sealer, String sealed, Instant now) {
        var claims = sealer.open(USE, sealed);
        if (claims.isEmpty() || !(claims.get().getClaimValue("ids") instanceof Map<?, ?> ids)) {
            return false;
        }
        ids.forEach((id, end) -> {
            if (id instanceof String s && end instanceof Number n) {
                add(s, Instant.ofEpochSecond(n.longValue()), now);
            }
        });
        return true;
    }

    private void forget(Instant now) {
        until.values().removeIf(end -> !end.isAfter(now));
    }
}
