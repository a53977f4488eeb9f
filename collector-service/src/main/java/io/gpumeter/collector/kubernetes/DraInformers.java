package io.gpumeter.collector.kubernetes;

import io.fabric8.kubernetes.api.model.APIGroup;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.jboss.logging.Logger;

import java.util.ArrayList;
import java.util.List;

/**
 * The informers for Dynamic Resource Allocation (resource.k8s.io/v1): ResourceClaims (all namespaces, or the
 * given ones), ResourceSlices and DeviceClasses. A cluster that does not serve the GA API (before Kubernetes 1.34,
 * or with the API off) has none of them; that is logged once per start and the rest of the watch runs as usual. A
 * discovery that fails rather than answers fails the watch's start, which is then tried again.
 */
public final class DraInformers {

    private static final Logger LOG = Logger.getLogger(DraInformers.class);
    static final String GROUP = "resource.k8s.io";
    static final String VERSION = "v1";

    private DraInformers() {
    }

    public static List<SharedIndexInformer<? extends HasMetadata>> create(KubernetesClient client, long resync,
                                                                          List<String> namespaces) {
        List<SharedIndexInformer<? extends HasMetadata>> informers = new ArrayList<>();
        if (!served(client)) {
            LOG.info("DRA watch: " + GROUP + "/" + VERSION + " not served, ResourceClaims are not watched");
            return informers;
        }
        var claims = client.resources(ResourceClaim.class);
        if (namespaces.isEmpty()) {
            informers.add(claims.inAnyNamespace().runnableInformer(resync));
        } else {
            namespaces.forEach(ns -> informers.add(claims.inNamespace(ns).runnableInformer(resync)));
        }
        informers.add(client.resources(ResourceSlice.class).runnableInformer(resync));
        informers.add(client.resources(DeviceClass.class).runnableInformer(resync));
        LOG.info("DRA watch: ResourceClaims, ResourceSlices and DeviceClasses of " + GROUP + "/" + VERSION);
        return informers;
    }

    /**
     * Whether the API server serves resource.k8s.io/v1. A group it does not know is answered 404, which the client
     * reads as no group; any other failure (a timeout, a 5xx) says nothing about the group and is thrown, so that the
     * watch's start fails and is tried again rather than leaving DRA unwatched until the collector restarts.
     */
    static boolean served(KubernetesClient client) {
        APIGroup group = client.getApiGroup(GROUP);
        return group != null && group.getVersions() != null
                && group.getVersions().stream().anyMatch(v -> VERSION.equals(v.getVersion()));
    }
}
