package io.gpumeter.slo.domain;

import io.gpumeter.common.problem.InvalidInput;

import java.util.regex.Pattern;

/**
 * Whose requests an SLO counts: one service's pods, or a tenant's pods — those the ledger attributed to the tenant at
 * the time — optionally narrowed to one service and/or one namespace.
 *
 * <p>A service is known by its namespace and its name: the name is chosen by the pods' tenant (a {@code service}
 * label or the model name the engine reports), the namespace by the cluster, so the same name in another tenant's
 * namespace is another service. A service selector without a namespace is one stored before services belonged to a
 * namespace (legacy): it is read only while a single namespace reports the service.
 *
 * @param service   the service whose requests count; null for a tenant selector over all its services
 * @param tenant    the tenant whose pods count; null for a service selector
 * @param namespace the service's namespace (with a tenant: only that namespace's pods count); null for a tenant
 *                  selector over all its namespaces, or a legacy service selector
 */
public record SloSelector(String service, String tenant, String namespace) {

    /** A Kubernetes namespace: a DNS label. */
    public static final Pattern NAMESPACE = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
    /** Tenants are label values or names from the ledger's attribution; 253 covers either. */
    static final int MAX_TENANT = 253;

    /** A selector's parts as sent, not yet validated. */
    public record Parts(String service, String tenant, String namespace) {
    }

    public boolean byTenant() {
        return tenant != null;
    }

    /** A service selector that does not say which namespace's service it means (stored before namespaces counted). */
    public boolean unpinned() {
        return tenant == null && namespace == null;
    }

    /** The same selector, pinned to the service of one namespace. */
    public SloSelector in(String namespace) {
        return new SloSelector(service, tenant, namespace);
    }

    /** Whether a namespace is a Kubernetes namespace name. */
    public static boolean isNamespace(String namespace) {
        return namespace != null && NAMESPACE.matcher(namespace).matches();
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
                    + " the objective counts, with selector.namespace (or selector.tenant for every service of a"
                    + " tenant)");
        }
        String ns = namespace == null ? null : namespace.strip();
        if (ns != null && !isNamespace(ns)) {
            throw new InvalidInput("selector.namespace", "selector.namespace must be a Kubernetes namespace (1-63"
                    + " lower-case letters, digits and '-'), got '" + namespace + "'");
        }
        return new SloSelector(service == null ? null : service.strip(), t, ns);
    }
}
