package io.gpumeter.collector.kubernetes;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Listable;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.jboss.logging.Logger;

import java.net.HttpURLConnection;
import java.util.ArrayList;
import java.util.List;

/**
 * The informers for the GPU stack's own workloads: DaemonSets and Deployments (apps/v1) in the namespaces of the
 * configured components only, never cluster-wide. The collector reads them with a Role in each namespace
 * (k8s/collector-gpu-stack); a namespace where it may not is left out with a warning, so that a missing Role costs
 * that namespace's components and not the whole watch. Any other failure fails the watch's start, which is then tried
 * again.
 * <p>
 * The pods of those namespaces come from the pod watch; where that watch covers only some namespaces
 * ({@code gpumeter.collector.watch.namespaces}), the stack's namespaces outside it get pod informers of their own,
 * whose pods yield GPU-stack facts only.
 */
public final class StackInformers {

    private static final Logger LOG = Logger.getLogger(StackInformers.class);

    /**
     * @param workloads the DaemonSet and Deployment informers
     * @param pods      the pod informers of stack namespaces the pod watch does not cover: their pods are the
     *                  stack's or nothing
     */
    public record Created(List<SharedIndexInformer<? extends HasMetadata>> workloads, List<SharedIndexInformer<Pod>> pods) {
    }

    private StackInformers() {
    }

    /** Unstarted informers for the components' namespaces; {@code watched} the pod watch's namespaces, empty for all. */
    public static Created create(KubernetesClient client, long resync, StackComponents components, List<String> watched) {
        List<SharedIndexInformer<? extends HasMetadata>> workloads = new ArrayList<>();
        List<SharedIndexInformer<Pod>> pods = new ArrayList<>();
        List<String> read = new ArrayList<>();
        for (String namespace : components.namespaces()) {
            for (String kind : components.kinds(namespace)) {
                boolean daemonSets = "DaemonSet".equals(kind);
                var daemonSetsThere = client.apps().daemonSets().inNamespace(namespace);
                var deploymentsThere = client.apps().deployments().inNamespace(namespace);
                if (readable(daemonSets ? daemonSetsThere : deploymentsThere, namespace, kind)) {
                    workloads.add(daemonSets ? daemonSetsThere.runnableInformer(resync)
                            : deploymentsThere.runnableInformer(resync));
                    read.add(kind + "s in " + namespace);
                }
            }
            if (!watched.isEmpty() && !watched.contains(namespace)) {
                pods.add(client.pods().inNamespace(namespace).runnableInformer(resync));
            }
        }
        LOG.infof("GPU stack watch: %s", read.isEmpty() ? "no component configured or readable" : String.join(", ", read));
        return new Created(workloads, pods);
    }

    /**
     * Whether the collector may list the kind in the namespace: a one-item list, answered 403 where its Role is
     * missing. A namespace that does not exist yet lists empty, and its informer sees the component when it comes.
     */
    static boolean readable(Listable<? extends KubernetesResourceList<?>> resources, String namespace, String kind) {
        try {
            resources.list(new ListOptionsBuilder().withLimit(1L).build());
            return true;
        } catch (KubernetesClientException e) {
            if (e.getCode() == HttpURLConnection.HTTP_FORBIDDEN) {
                LOG.warnf("GPU stack watch: may not list %ss in %s (%s); apply k8s/collector-gpu-stack, or turn the "
                        + "components there off in gpumeter.collector.stack.components", kind, namespace, e.getMessage());
                return false;
            }
            throw e;
        }
    }
}
