package io.gpumeter.common.security;

import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Who may call one family of endpoints. {@code path} is matched segment by segment: {@code *} is one segment,
 * a trailing {@code **} any number (including none).
 *
 * @param family      the name printed in the README's matrix
 * @param services    the services serving the family, for the matrix only
 * @param methods     the HTTP methods covered; empty means every method
 * @param paths       the path patterns covered
 * @param roles       the roles allowed; empty with {@code ownToken} for endpoints that check their own token
 * @param tenantParam where a tenant token's tenant must appear: a query parameter name, or {@code {n}} for the
 *                    n-th path segment; null when tenants may not call the family at all
 * @param ownToken    the endpoint authenticates its caller itself (Alertmanager's webhook)
 */
public record AccessRule(String family, String services, Set<String> methods, List<String> paths, Set<Role> roles,
                         String tenantParam, boolean ownToken) {

    public AccessRule {
        methods = Set.copyOf(methods);
        paths = List.copyOf(paths);
        roles = roles.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(roles));
        if (roles.contains(Role.TENANT) != (tenantParam != null)) {
            throw new IllegalArgumentException(family + ": a family open to tenants must say where the tenant is named");
        }
    }

    public boolean matches(String method, String path) {
        return matches(method, segments(path));
    }

    /** Matches decoded path segments, as {@link RequestTarget} parses them. */
    public boolean matches(String method, String[] given) {
        if (!methods.isEmpty() && !methods.contains(method.toUpperCase(Locale.ROOT))) {
            return false;
        }
        for (String pattern : paths) {
            if (matches(segments(pattern), given)) {
                return true;
            }
        }
        return false;
    }

    public boolean allows(Role role) {
        return roles.contains(role);
    }

    /** The path segment naming the tenant, or -1 when the tenant is a query parameter. */
    public int tenantSegment() {
        if (tenantParam != null && tenantParam.startsWith("{") && tenantParam.endsWith("}")) {
            return Integer.parseInt(tenantParam.substring(1, tenantParam.length() - 1));
        }
        return -1;
    }

    static String[] segments(String path) {
        String trimmed = path.startsWith("/") ? path.substring(1) : path;
        if (trimmed.endsWith("/")) {
            trimmed = trimmed.substring(0, trimmed.length() - 1);
        }
        return trimmed.isEmpty() ? new String[0] : trimmed.split("/", -1);
    }

    private static boolean matches(String[] pattern, String[] given) {
        for (int i = 0; i < pattern.length; i++) {
            if (pattern[i].equals("**") && i == pattern.length - 1) {
                return true;
            }
            if (i >= given.length || !(pattern[i].equals("*") || pattern[i].equals(given[i]))) {
                return false;
            }
        }
        return pattern.length == given.length;
    }
}
