package io.gpumeter.slo.domain;

import io.gpumeter.common.problem.InvalidInput;

import java.util.regex.Pattern;

/**
 * Whose requests an SLO counts: every pod of one service, or a tenant's pods — those the ledger attributed to the
 * tenant at the time — optionally narrowed to one service and/or one namespace.
 *
 * @param service   the service whose requests count; null for a tenant selector over all its services
 * @param tenant    the tenant whose pods count; null for a service selector
 * @param namespace with a tenant, only that namespace's pods count; null otherwise
 */
public record SloSelector(String service, String tenant, String namespace) {

    /** A Kubernetes namespace: a DNS label. */
    static final Pattern NAMESPACE = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
    /** Tenants are label values or names from the ledger's attribution; 253 covers either. */
    static final int MAX_TENANT = 253;

    /** A selector's parts as sent, not yet validated. */
    public record Parts(String service, String tenant, String namespace) {
    }

    public boolean byTenant() {
        return tenant != null;
    }

    /**
     * Validates a selector's parts, naming the first field at fault.
     *
     * @throws InvalidInput naming {@code selector.service}, {@code selector.tenant} or {@code selector.namespace}
     */
    public static SloSelector of(String service, String tenant, String namespace) {
        String t = tenant == null ? null : tenant.strip();
        if (t != null && (t.isEmpty() || t.length() > MAX_TENANT || t.chars().anyMatch(Character::isISOControl))) {
            throw new InvalidInput("selector.tenant", "selector.tenant must name a tenant in 1-" + MAX_TENANT
                    + " printable characters, got '" + tenant + "'");
        }
        if (service != null && service.isBlank() || service == null && t == null) {
            throw new InvalidInput("selector.service", "selector.service is required: the service whose requests"
                    + " the objective counts (or selector.tenant for every service of a tenant)");
        }
        String ns = namespace == null ? null : namespace.strip();
        if (ns != null && t == null) {
            throw new InvalidInput("selector.namespace", "selector.namespace narrows a tenant selector: name"
                    + " selector.tenant as well, or select the service alone");
        }
        if (ns != null && !NAMESPACE.matcher(ns).matches()) {
            throw new InvalidInput("selector.namespace", "selector.namespace must be a Kubernetes namespace (1-63"
                    + " lower-case letters, digits and '-'), got '" + namespace + "'");
        }
        return new SloSelector(service == null ? null : service.strip(), t, ns);
    }
}
