package io.gpumeter.collector.governance;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.gpumeter.collector.kubernetes.Skip;

import java.util.List;
import java.util.Set;

/**
 * The governance kinds the collector reads: Kueue, Volcano and core Events. A kind of a known group at a version
 * the collector does not read is skipped with a reason rather than guessed at.
 */
public enum GovernanceKinds {
    WORKLOAD("kueue.x-k8s.io", "Workload", "workloads", true, Set.of("v1beta1", "v1beta2")),
    CLUSTER_QUEUE("kueue.x-k8s.io", "ClusterQueue", "clusterqueues", false, Set.of("v1beta1", "v1beta2")),
    LOCAL_QUEUE("kueue.x-k8s.io", "LocalQueue", "localqueues", true, Set.of("v1beta1", "v1beta2")),
    RESOURCE_FLAVOR("kueue.x-k8s.io", "ResourceFlavor", "resourceflavors", false, Set.of("v1beta1", "v1beta2")),
    POD_GROUP("scheduling.volcano.sh", "PodGroup", "podgroups", true, Set.of("v1beta1")),
    VOLCANO_QUEUE("scheduling.volcano.sh", "Queue", "queues", false, Set.of("v1beta1")),
    VOLCANO_JOB("batch.volcano.sh", "Job", "jobs", true, Set.of("v1alpha1"));

    /** Versions in order of preference when the cluster serves several. */
    static final List<String> PREFERENCE = List.of("v1beta2", "v1beta1", "v1alpha1");

    final String group;
    final String kind;
    final String plural;
    final boolean namespaced;
    final Set<String> versions;

    GovernanceKinds(String group, String kind, String plural, boolean namespaced, Set<String> versions) {
        this.group = group;
        this.kind = kind;
        this.plural = plural;
        this.namespaced = namespaced;
        this.versions = versions;
    }

    ResourceDefinitionContext context(String version) {
        return new ResourceDefinitionContext.Builder().withGroup(group).withVersion(version).withKind(kind)
                .withPlural(plural).withNamespaced(namespaced).build();
    }

    /**
     * The model to bind a watched object to: a generic resource for the custom kinds, the typed Event for events,
     * null when the object is no governance kind.
     *
     * @throws Skip for a governance kind at an apiVersion that is not read
     */
    public static Class<? extends HasMetadata> model(String apiVersion, String kind) {
        if ("Event".equals(kind)) {
            if ("v1".equals(apiVersion)) {
                return io.fabric8.kubernetes.api.model.Event.class;
            }
            if ("events.k8s.io/v1".equals(apiVersion)) {
                return io.fabric8.kubernetes.api.model.events.v1.Event.class;
            }
            throw new Skip("unknown apiVersion " + show(apiVersion) + " for Event");
        }
        int slash = apiVersion == null ? -1 : apiVersion.indexOf('/');
        String group = slash < 0 ? "" : apiVersion.substring(0, slash);
        String version = slash < 0 ? apiVersion : apiVersion.substring(slash + 1);
        for (GovernanceKinds k : values()) {
            if (k.kind.equals(kind) && k.group.equals(group)) {
                if (!k.versions.contains(version)) {
                    throw new Skip("unknown apiVersion " + show(apiVersion) + " for " + kind);
                }
                return GenericKubernetesResource.class;
            }
        }
        boolean kueueOrVolcano = group.equals("kueue.x-k8s.io") || group.endsWith("volcano.sh");
        if (kueueOrVolcano) {
            throw new Skip("kind " + kind + " of " + group + " not read");
        }
        if (slash < 0 && !kind.isEmpty() && isCustomKind(kind)) {
            throw new Skip("unknown apiVersion " + show(apiVersion) + " for " + kind);
        }
        return null;
    }

    /** The governance kind of a generic resource, by its apiVersion and kind. */
    static GovernanceKinds of(String apiVersion, String kind) {
        int slash = apiVersion == null ? -1 : apiVersion.indexOf('/');
        String group = slash < 0 ? "" : apiVersion.substring(0, slash);
        for (GovernanceKinds k : values()) {
            if (k.kind.equals(kind) && k.group.equals(group)) {
                return k;
            }
        }
        return null;
    }

    /** Kinds only Kueue or Volcano define, so an apiVersion without a group cannot be right for them. */
    private static boolean isCustomKind(String kind) {
        for (GovernanceKinds k : values()) {
            if (k.kind.equals(kind) && !"Job".equals(kind) && !"Queue".equals(kind)) {
                return true;
            }
        }
        return false;
    }

    private static String show(String apiVersion) {
        return apiVersion == null || apiVersion.isEmpty() ? "(none)" : apiVersion;
    }
}
