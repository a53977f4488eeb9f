package io.gpumeter.common.security;

import java.util.Collection;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * A token's roles, the one reading of its {@code groups} claim that the services' access filter and the console's
 * pages share. A token holding {@code tenant:<name>} groups is confined to that tenant unless it also holds a role
 * that reads every tenant anyway ({@code admin} and {@code tenant:acme} read the fleet); {@code ingest}, which reads
 * nothing, lifts no confinement. A confined token naming several tenants is refused rather than guessed at.
 */
public record Caller(Set<Role> roles, Set<String> tenants) {

    /** Why a confined token naming several tenants (or none) is refused, in the services' and the console's words. */
    public static final String AMBIGUOUS = "A tenant token must name exactly one tenant.";

    public static Caller of(Collection<String> groups) {
        Set<Role> roles = EnumSet.noneOf(Role.class);
        Set<String> tenants = new TreeSet<>();
        for (String group : groups) {
            if (group.startsWith(Role.TENANT_PREFIX) && group.length() > Role.TENANT_PREFIX.length()) {
                roles.add(Role.TENANT);
                tenants.add(group.substring(Role.TENANT_PREFIX.length()));
                continue;
            }
            for (Role role : Role.values()) {
                if (role != Role.TENANT && role.name().toLowerCase(Locale.ROOT).equals(group)) {
                    roles.add(role);
                }
            }
        }
        return new Caller(roles, tenants);
    }

    public boolean mayCall(AccessRule rule) {
        return roles.stream().anyMatch(rule::allows);
    }

    /** Whether a read of {@code method} {@code path} under {@code /api/} is open to this caller by the access table. */
    public boolean mayCall(String method, String path) {
        return mayCall(AccessRules.match(method, path));
    }

    /** The tenant this caller is confined to, if it is confined. */
    public Optional<String> confinedTo() {
        return confined() && tenants.size() == 1 ? Optional.of(tenants.iterator().next()) : Optional.empty();
    }

    /** A tenant-only token naming several tenants is refused rather than guessed at. */
    public boolean ambiguous() {
        return confined() && tenants.size() != 1;
    }

    /** Reads every tenant's rows: holds a role that does, whatever tenant groups stand beside it. */
    public boolean readsEveryTenant() {
        return roles.stream().anyMatch(Role::readsEveryTenant);
    }

    private boolean confined() {
        return roles.contains(Role.TENANT) && !readsEveryTenant();
    }
}
