package io.gpumeter.common.security;

import java.util.Locale;

/**
 * What a token may do. A token carries its roles in the JWT {@code groups} claim: {@code admin}, {@code operator},
 * {@code reader}, {@code service}, {@code ingest}, or {@code tenant:<name>} for a tenant who sees only its own rows.
 */
public enum Role {
    /** Everything, including closing a month's books. */
    ADMIN,
    /** Reads, and triggers actions: runbook evaluations, SLOs, rate cards, budgets. */
    OPERATOR,
    /** Reads everything, changes nothing. */
    READER,
    /**
     * A gpumeter service: sends data and reads what the other services answer. Its token's {@code aud} names the
     * services it calls, and each service refuses a {@code service} token not addressed to it.
     */
    SERVICE,
    /** A node pusher (dcgm, nvidia-smi, kernel and container logs): posts usage and logs to the collector, reads nothing. */
    INGEST,
    /** {@code tenant:<name>}: reads only its own tenant's rows. */
    TENANT;

    public static final String TENANT_PREFIX = "tenant:";

    /** Roles that may read every tenant's rows, so a tenant group beside them confines nothing. */
    public boolean readsEveryTenant() {
        return this == ADMIN || this == OPERATOR || this == READER || this == SERVICE;
    }

    public String claim() {
        return this == TENANT ? TENANT_PREFIX + "<name>" : name().toLowerCase(Locale.ROOT);
    }
}
