package io.gpumeter.common.security;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * A verified token's roles. A token holding {@code tenant:<name>} groups is confined to that tenant unless it also
 * holds a role that reads every tenant anyway; {@code ingest}, which reads nothing, lifts no confinement.
 */
public record Caller(Set<Role> roles, Set<String> tenants) {

    public static Caller of(Set<String> groups) {
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

    /** The tenant this caller is confined to, if it is confined. */
    public Optional<String> confinedTo() {
        return confined() && tenants.size() == 1 ? Optional.of(tenants.iterator().next()) : Optional.empty();
    }

    /** A tenant-only token naming several tenants is refused rather than guessed at. */
    public boolean ambiguous() {
        return confined() && tenants.size() != 1;
    }

    private boolean confined() {
        return roles.contains(Role.TENANT) && roles.stream().noneMatch(Role::readsEveryTenant);
    }
}
