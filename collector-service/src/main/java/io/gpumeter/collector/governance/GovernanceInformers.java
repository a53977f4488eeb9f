package io.gpumeter.collector.governance;

import io.fabric8.kubernetes.api.model.APIGroup;
import io.fabric8.kubernetes.api.model.GroupVersionForDiscovery;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.jboss.logging.Logger;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The informers for Events and for whichever Kueue and Volcano kinds the cluster serves. A cluster without Kueue
 * or Volcano is normal: their kinds are left out, and the choice is logged once per start.
 */
public final class GovernanceInformers {

    private static final Logger LOG = Logger.getLogger(GovernanceInformers.class);

    private GovernanceInformers() {
    }

    /** Unstarted informers: Events (all namespaces, or the given ones) and each served governance kind. */
    public static List<SharedIndexInformer<? extends HasMetadata>> create(KubernetesClient client, long resync,
                                                                          List<String> namespaces) {
        List<SharedIndexInformer<? extends HasMetadata>> informers = new ArrayList<>();
        if (namespaces.isEmpty()) {
            informers.add(client.v1().events().inAnyNamespace().runnableInformer(resync));
        } else {
            namespaces.forEach(ns -> informers.add(client.v1().events().inNamespace(ns).runnableInformer(resync)));
        }
        List<String> watched = new ArrayList<>();
        for (GovernanceKinds kind : GovernanceKinds.values()) {
            String version = servedVersion(client, kind);
            if (version == null) {
                continue;
            }
            watched.add(kind.kind + " " + kind.group + "/" + version);
            var resources = client.genericKubernetesResources(kind.context(version));
            if (!kind.namespaced) {
                informers.add(resources.runnableInformer(resync));
            } else if (namespaces.isEmpty()) {
                informers.add(resources.inAnyNamespace().runnableInformer(resync));
            } else {
                namespaces.forEach(ns -> informers.add(resources.inNamespace(ns).runnableInformer(resync)));
            }
        }
        LOG.infof("governance watch: Events%s", watched.isEmpty() ? " (no Kueue or Volcano kinds served)"
                : ", " + String.join(", ", watched));
        return informers;
    }

    /**
     * The preferred version of the kind's group that the API server serves, null when it serves none. A group the
     * server does not know is answered 404, which the client reads as no group; any other failure (a timeout, a 5xx)
     * says nothing about the group and is thrown, so that the watch's start fails and is tried again rather than
     * leaving Kueue and Volcano unwatched until the collector restarts.
     */
    static String servedVersion(KubernetesClient client, GovernanceKinds kind) {
        APIGroup group = client.getApiGroup(kind.group);
        if (group == null || group.getVersions() == null) {
            return null;
        }
        Set<String> served = group.getVersions().stream().map(GroupVersionForDiscovery::getVersion)
                .collect(Collectors.toSet());
        return GovernanceKinds.PREFERENCE.stream().filter(v -> served.contains(v) && kind.versions.contains(v))
                .findFirst().orElse(null);
    }
}
