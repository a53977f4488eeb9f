package io.gpumeter.ledger.triage.pending;

import static io.gpumeter.common.shell.ShellWords.quote;

/**
 * What a person would run to see the facts a wait is judged by that are the queues' and the nodes' as a fleet (a
 * pod's and one node's own are {@link io.gpumeter.ledger.triage.domain.Commands}'). Every name comes from the cluster, much of it written by tenants,
 * so each is single-quoted ({@link io.gpumeter.common.shell.ShellWords}): a name cannot run anything.
 */
public final class WaitCommands {

    /** The label the GPU Operator's device plugin pods carry. */
    static final String NVIDIA_DEVICE_PLUGIN_LABEL = "app=nvidia-device-plugin-daemonset";
    /** The label HAMi's device plugin pods carry. */
    static final String HAMI_DEVICE_PLUGIN_LABEL = "app.kubernetes.io/component=hami-device-plugin";

    private WaitCommands() {
    }

    public static String nodesSelected(String labelSelector) {
        return labelSelector == null ? "kubectl get nodes --show-labels" : "kubectl get nodes -l " + quote(labelSelector);
    }

    /** What every node offers of a resource. */
    public static String nodesOffering(String resource) {
        String escaped = resource.replace(".", "\\.");
        return "kubectl get nodes -o custom-columns=" + quote("NAME:.metadata.name,CAPACITY:.status.capacity." + escaped
                + ",ALLOCATABLE:.status.allocatable." + escaped);
    }

    /** The device plugin's pod on a node, by the label its DaemonSet gives it, else every stack pod there. */
    public static String devicePlugin(DevicePlugin plugin, String node) {
        String namespace = plugin.namespace() != null ? plugin.namespace()
                : "hami-device-plugin".equals(plugin.component()) ? "kube-system" : "gpu-operator";
        String label = "hami-device-plugin".equals(plugin.component()) ? HAMI_DEVICE_PLUGIN_LABEL
                : "device-plugin".equals(plugin.component()) || plugin.component() == null ? NVIDIA_DEVICE_PLUGIN_LABEL : null;
        return "kubectl get pods -n " + quote(namespace) + (label == null ? "" : " -l " + label)
                + " -o wide --field-selector spec.nodeName=" + quote(node);
    }

    public static String workload(String namespace, String workload) {
        return "kubectl get workload -n " + quote(namespace) + " " + quote(workload) + " -o yaml";
    }

    public static String clusterQueue(String clusterQueue) {
        return "kubectl get clusterqueue " + quote(clusterQueue) + " -o yaml";
    }

    /** The Workloads pending in a LocalQueue, with their positions (Kueue's visibility API): only the tenant's own. */
    public static String pendingWorkloads(String namespace, String localQueue) {
        return "kubectl get --raw " + quote("/apis/visibility.kueue.x-k8s.io/v1beta1/namespaces/" + namespace
                + "/localqueues/" + localQueue + "/pendingworkloads");
    }

    public static String podGroup(String namespace, String podGroup) {
        return "kubectl get podgroup.scheduling.volcano.sh -n " + quote(namespace) + " " + quote(podGroup) + " -o yaml";
    }

    public static String volcanoQueue(String queue) {
        return "kubectl get queue.scheduling.volcano.sh " + quote(queue) + " -o yaml";
    }
}
