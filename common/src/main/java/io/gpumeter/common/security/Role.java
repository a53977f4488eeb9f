package io.gpumeter.common.security;

import java.util.Locale;

/**
 * What a token may do. A token carries its roles in the JWT {@code groups} claim: {@code admin}, {@code operator},
 * {@code reader}, {@code service}, or {@code tenant:<name>} for a tenant who sees only its own rows.
 */
public enum Role {
    /** Everything, including closing a month's books. */
    ADMIN,
    /** Reads, and triggers actions: runbook evaluations, SLOs, rate cards, budgets. */
    OPERATOR,
    /** Reads everything, changes nothing. */
    READER,
    /** A gpumeter service or a node pusher: sends data and reads what the other services answer. */
    SERVICE,
    /** {@code tenant:<name>}: reads only its own tenant's rows. */
    TENANT;

    public static final String TENANT_PREFIX = "tenant:";

    public String claim() {
        return this == TENANT ? TENANT_PREFIX + "<name>" : name().toLowerCase(Locale.ROOT);
    }
}
