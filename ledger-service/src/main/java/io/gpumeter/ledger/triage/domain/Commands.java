package io.gpumeter.ledger.triage.domain;

import static io.gpumeter.common.shell.ShellWords.quote;

/**
 * What a person runs to see a fact about one pod, node or card the triage read (the queues' and the fleet's are
 * {@link io.gpumeter.ledger.triage.pending.WaitCommands}'), each name single-quoted
 * ({@link io.gpumeter.common.shell.ShellWords}) so that nothing in a pod's, node's or card's name means anything to the
 * shell. A command on the node itself runs through a debug pod that enters the host's filesystem, as a person without
 * SSH to the node would. A command about a node not known is null.
 */
public final class Commands {

    /** The image a node debug pod runs; its shell is enough, the tools are the host's. */
    static final String DEBUG_IMAGE = "busybox";

    private Commands() {
    }

    public static String describePod(String namespace, String pod) {
        return "kubectl describe pod -n " + quote(namespace) + " " + quote(pod);
    }

    public static String previousLogs(String namespace, String pod, String container) {
        return "kubectl logs -n " + quote(namespace) + " " + quote(pod)
                + (container == null ? "" : " -c " + quote(container)) + " --previous";
    }

    public static String podEvents(String namespace, String pod) {
        return "kubectl get events -n " + quote(namespace) + " --field-selector " + quote("involvedObject.name=" + pod);
    }

    /** The part of a pod's object at a JSONPath ({@code {.spec.tolerations}}). */
    public static String podSpec(String namespace, String pod, String jsonPath) {
        return "kubectl get pod -n " + quote(namespace) + " " + quote(pod) + " -o jsonpath=" + quote(jsonPath);
    }

    public static String podAnnotation(String namespace, String pod, String annotation) {
        return podSpec(namespace, pod, "{.metadata.annotations." + annotation.replace(".", "\\.") + "}");
    }

    public static String nodeEvents(String node) {
        return "kubectl get events -A --field-selector " + quote("involvedObject.kind=Node,involvedObject.name=" + node);
    }

    /** The node's allocated resources, what its pods hold of each. */
    public static String describeNode(String node) {
        return node == null ? null : "kubectl describe node " + quote(node);
    }

    public static String nodeJsonPath(String node, String path) {
        if (node == null) {
            return null;
        }
        return "kubectl get node " + quote(node) + " -o jsonpath=" + quote(path);
    }

    public static String nodeAllocatable(String node) {
        return nodeJsonPath(node, "{.status.allocatable}");
    }

    public static String nodeTaints(String node) {
        return nodeJsonPath(node, "{.spec.taints}");
    }

    public static String nodeLabel(String node, String label) {
        return nodeJsonPath(node, "{.metadata.labels." + label.replace(".", "\\.") + "}");
    }

    /** A command run on the node's own filesystem, through a debug pod. */
    public static String onNode(String node, String command) {
        if (node == null) {
            return null;
        }
        return "kubectl debug " + quote("node/" + node) + " -it --image=" + DEBUG_IMAGE + " -- chroot /host " + command;
    }

    /** A shell pipeline run on the node's own filesystem. */
    public static String onNodeShell(String node, String pipeline) {
        return node == null ? null : onNode(node, "sh -c " + quote(pipeline));
    }

    public static String nvidiaSmi(String node) {
        return onNode(node, "nvidia-smi");
    }

    public static String cardQuery(String node, String gpuUuid) {
        return node == null ? null : onNode(node, "nvidia-smi -i " + quote(gpuUuid) + " -q");
    }

    public static String cardMemory(String node, String gpuUuid) {
        return node == null ? null : onNode(node, "nvidia-smi -i " + quote(gpuUuid)
                + " --query-gpu=uuid,memory.used,memory.total --format=csv");
    }

    public static String processMemory(String node, String gpuUuid) {
        return node == null ? null : onNode(node, "nvidia-smi -i " + quote(gpuUuid)
                + " --query-compute-apps=pid,process_name,used_memory --format=csv");
    }

    public static String kernelXids(String node) {
        return onNodeShell(node, "dmesg -T | grep -i xid");
    }

    public static String kernelOoms(String node) {
        return onNodeShell(node, "dmesg -T | grep -i -E 'out of memory|killed process'");
    }

    public static String migInstances(String node) {
        return onNode(node, "nvidia-smi mig -lgi");
    }

    public static String stackPodsOn(String namespace, String node) {
        return "kubectl get pods -n " + quote(namespace) + " -o wide --field-selector " + quote("spec.nodeName=" + node);
    }

    public static String execNvidiaSmi(String namespace, String pod) {
        return "kubectl exec -n " + quote(namespace) + " " + quote(pod) + " -- nvidia-smi";
    }
}
