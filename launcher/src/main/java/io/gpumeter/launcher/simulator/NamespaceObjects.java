package io.gpumeter.launcher.simulator;

import io.fabric8.kubernetes.api.model.FieldsV1;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Namespace objects with the managedFields the API server keeps: the tooling that created the namespace owns its
 * labels until someone relabels the tenant, which moves ownership of that one label to the relabelling manager
 * and stamps the change time on its entry.
 */
final class NamespaceObjects {

    static final String CREATOR = "kubectl-client-side-apply";
    static final String RELABELLER = "kubectl-label";

    private NamespaceObjects() {
    }

    /** The namespace as it stands at {@code at}: labels and field ownership of every tenant period begun by then. */
    static Namespace namespace(SimNamespace ns, Instant at) {
        TenantPeriod first = ns.tenants().get(0);
        TenantPeriod current = first;
        for (TenantPeriod period : ns.tenants()) {
            if (!period.since().isAfter(at)) {
                current = period;
            }
        }
        boolean relabelled = current != first;
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(Tenancy.TENANT_LABEL, current.tenant());
        labels.put(Tenancy.TEAM_LABEL, ns.team());
        labels.put("kubernetes.io/metadata.name", ns.name());

        List<String> creatorOwns = new ArrayList<>(List.of(Tenancy.TEAM_LABEL, "kubernetes.io/metadata.name"));
        if (!relabelled) {
            creatorOwns.add(0, Tenancy.TENANT_LABEL);
        }
        List<ManagedFieldsEntry> managed = new ArrayList<>();
        managed.add(entry(CREATOR, first.since(), creatorOwns, true));
        if (relabelled) {
            managed.add(entry(RELABELLER, current.since(), List.of(Tenancy.TENANT_LABEL), false));
        }
        return new NamespaceBuilder()
                .withNewMetadata()
                .withName(ns.name())
                .withUid(ns.uid())
                .withCreationTimestamp(Rfc3339.format(first.since()))
                .withLabels(labels)
                .withManagedFields(managed)
                .endMetadata()
                .withNewSpec().withFinalizers("kubernetes").endSpec()
                .withNewStatus().withPhase("Active").endStatus()
                .build();
    }

    private static ManagedFieldsEntry entry(String manager, Instant time, List<String> labelKeys, boolean ownsMap) {
        // the API server lists owned fields in key order, "." first
        Map<String, Object> labelFields = new TreeMap<>();
        if (ownsMap) {
            labelFields.put(".", Map.of());
        }
        for (String key : labelKeys) {
            labelFields.put("f:" + key, Map.of());
        }
        FieldsV1 fields = new FieldsV1();
        fields.setAdditionalProperty("f:metadata", Map.of("f:labels", labelFields));
        return new ManagedFieldsEntryBuilder()
                .withManager(manager)
                .withOperation("Update")
                .withApiVersion("v1")
                .withTime(Rfc3339.format(time))
                .withFieldsType("FieldsV1")
                .withFieldsV1(fields)
                .build();
    }
}
