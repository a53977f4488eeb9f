package io.gpumeter.slo.triage;

import io.gpumeter.common.triage.Triage;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The names an answer writes, each listed with its tenant as it is written ({@link Triage#named()}), so that an
 * answer cut for a tenant replaces every other tenant's. Text is written through here, never around it.
 */
final class Names {

    private final Map<String, String> podTenants;
    private final Set<Triage.Named> named = new LinkedHashSet<>();

    /** @param podTenants the tenant of each pod ("namespace/pod") known; a pod missing here has no known tenant */
    Names(Map<String, String> podTenants) {
        this.podTenants = podTenants;
    }

    /** Whether the pod's tenant is known (a pod the ledger attributed to no tenant is known, with null). */
    boolean knows(String podKey) {
        return podTenants.containsKey(podKey);
    }

    /** "namespace/pod", listed with its namespace. */
    String pod(String podKey) {
        int slash = podKey.indexOf('/');
        String ns = podKey.substring(0, slash);
        String tenant = podTenants.get(podKey);
        named.add(new Triage.Named(Triage.SubjectKind.POD, ns, podKey.substring(slash + 1), tenant));
        named.add(new Triage.Named(null, ns, null, tenant));
        return podKey;
    }

    /** "namespace/service", listed with its namespace. */
    String service(String namespace, String service, String tenant) {
        named.add(new Triage.Named(Triage.SubjectKind.SERVICE, namespace, service, tenant));
        named.add(new Triage.Named(null, namespace, null, tenant));
        return namespace + "/" + service;
    }

    /** A pod's owner by name, listed in the pod's namespace. */
    String workload(String namespace, String name, String tenant) {
        named.add(new Triage.Named(Triage.SubjectKind.WORKLOAD, namespace, name, tenant));
        return name;
    }

    Optional<String> tenantOf(String podKey) {
        return Optional.ofNullable(podTenants.get(podKey));
    }

    List<Triage.Named> list() {
        return new ArrayList<>(named);
    }
}
