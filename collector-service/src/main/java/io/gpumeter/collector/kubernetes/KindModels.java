package io.gpumeter.collector.kubernetes;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.gpumeter.collector.governance.GovernanceKinds;

import java.util.Map;

/** The Kubernetes model class a watched object of a kind and apiVersion is bound to, or why it is not metered. */
final class KindModels {

    private static final Map<String, Class<? extends HasMetadata>> KINDS = Map.of(
            "Pod", Pod.class, "Node", Node.class, "Namespace", Namespace.class);

    /** Dynamic Resource Allocation kinds, read in their GA shape only (earlier versions nest requests differently). */
    static final String DRA_API = "resource.k8s.io/v1";
    private static final Map<String, Class<? extends HasMetadata>> DRA_KINDS = Map.of(
            "ResourceClaim", ResourceClaim.class, "ResourceSlice", ResourceSlice.class, "DeviceClass", DeviceClass.class);

    /** The GPU stack's workload kinds, read in apps/v1 only (the API server has served nothing else since 1.16). */
    static final String APPS_API = "apps/v1";
    private static final Map<String, Class<? extends HasMetadata>> APPS_KINDS = Map.of(
            "DaemonSet", DaemonSet.class, "Deployment", Deployment.class);

    private KindModels() {
    }

    /**
     * The model class of a kind, or null when it is not metered; then the reason is counted in {@code skips}, unless
     * that is null (a first reading leaves skipped events to the tree).
     */
    static Class<? extends HasMetadata> of(String apiVersion, String kind, FactSink skips) {
        Class<? extends HasMetadata> model;
        try {
            model = GovernanceKinds.model(apiVersion, kind);
        } catch (Skip e) {
            return skipped(skips, e.reason());
        }
        if (model == null && DRA_KINDS.containsKey(kind)) {
            if (!DRA_API.equals(apiVersion)) {
                return skipped(skips, kind + " of " + (apiVersion.isEmpty() ? "no apiVersion" : apiVersion)
                        + " not metered; only " + DRA_API);
            }
            model = DRA_KINDS.get(kind);
        }
        if (model == null && APPS_KINDS.containsKey(kind)) {
            if (!APPS_API.equals(apiVersion)) {
                return skipped(skips, kind + " of " + (apiVersion.isEmpty() ? "no apiVersion" : apiVersion)
                        + " not read; only " + APPS_API);
            }
            model = APPS_KINDS.get(kind);
        }
        if (model == null) {
            model = KINDS.get(kind);
        }
        if (model == null) {
            return skipped(skips, kind.isEmpty() ? "object without kind" : "kind " + kind + " not metered yet");
        }
        return model;
    }

    private static Class<? extends HasMetadata> skipped(FactSink skips, String reason) {
        if (skips != null) {
            skips.skip(reason);
        }
        return null;
    }
}
