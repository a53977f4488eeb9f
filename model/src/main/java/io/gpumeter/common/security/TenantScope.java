package io.gpumeter.common.security;

import java.util.List;
import java.util.Optional;

/**
 * Holds a tenant-confined caller to its own tenant, decided once on the parsed request: a request naming another
 * tenant — in any spelling of the parameter, any number of times, or empty — is refused; one naming only its own
 * tenant, or none, is rewritten so that the tenant parameter appears exactly once, with the caller's tenant.
 */
public final class TenantScope {

    /** What becomes of the request. */
    public sealed interface Decision {
    }

    /** Refused: a 403 problem naming {@code field}. */
    public record Refuse(String field, String detail) implements Decision {
    }

    /** Let through with this query in place of the one sent (null: unchanged). */
    public record Allow(String query) implements Decision {
    }

    private TenantScope() {
    }

    public static Decision decide(AccessRule rule, RequestTarget target, String own) {
        String detail = "This token reads only tenant '" + own + "'.";
        if (!target.canonical()) {
            return new Refuse("path", target.problem());
        }
        int segment = rule.tenantSegment();
        if (segment >= 0) {
            List<String> segments = target.segments();
            Optional<String> named = segments.size() > segment ? Optional.of(segments.get(segment)) : Optional.empty();
            if (named.isEmpty() || !own.equals(named.get())) {
                return new Refuse("tenant", detail);
            }
            boolean otherInQuery = target.values("tenant").stream().anyMatch(v -> !own.equals(v));
            return otherInQuery ? new Refuse("tenant", detail) : new Allow(null);
        }
        String param = rule.tenantParam();
        if (target.values(param).stream().anyMatch(v -> !own.equals(v))) {
            return new Refuse(param, detail);
        }
        return new Allow(target.queryWithOnly(param, own));
    }
}
