package io.gpumeter.collector.host;

import io.gpumeter.common.fact.NodeStatusFact;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.common.fact.WatchEventType;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The GPU pods and GPU nodes this collector knows of, per cluster: the pods its watch and its replays translated (a
 * pod that asks for no GPU never becomes a fact) and the pods GPU usage names; the nodes that offer GPU resources, hold
 * a GPU pod or send GPU usage. Host series of anything else are left out — a fleet's every container would be
 * billions of rows a day. A deleted pod stays known for a grace period, so its last minutes still close.
 */
public final class GpuPlaces {

    private record PodKey(String cluster, String namespace, String pod) {
    }

    private record NodeKey(String cluster, String node) {
    }

    /** Where a pod runs and, once deleted, since when (else Long.MAX_VALUE). */
    private record Place(String node, long goneMs) {
    }

    private final Map<PodKey, Place> pods = new ConcurrentHashMap<>();
    /** GPU nodes, each with when it stopped being one (Long.MAX_VALUE while it is). */
    private final Map<NodeKey, Long> nodes = new ConcurrentHashMap<>();
    private final long graceMs;

    public GpuPlaces(long graceMs) {
        this.graceMs = graceMs;
    }

    /** Learns from a watched or replayed fact: a GPU pod's version, or a node's status. Others are ignored. */
    public void learn(String cluster, Object fact, long nowMs) {
        if (fact instanceof PodFact pod && pod.namespace() != null && pod.name() != null) {
            PodKey key = new PodKey(cluster, pod.namespace(), pod.name());
            if (pod.type() == WatchEventType.DELETED) {
                pods.computeIfPresent(key, (k, p) -> new Place(p.node(), Math.min(p.goneMs(), nowMs)));
            } else {
                Place before = pods.get(key);
                String node = pod.nodeName() != null ? pod.nodeName() : before == null ? null : before.node();
                pods.put(key, new Place(node, Long.MAX_VALUE));
                if (node != null) {
                    nodes.put(new NodeKey(cluster, node), Long.MAX_VALUE);
                }
            }
        } else if (fact instanceof NodeStatusFact status && status.name() != null) {
            NodeKey key = new NodeKey(cluster, status.name());
            boolean offers = status.type() != WatchEventType.DELETED
                    && status.capacity().values().stream().anyMatch(v -> v != null && v > 0);
            if (offers) {
                nodes.put(key, Long.MAX_VALUE);
            } else {
                nodes.computeIfPresent(key, (k, gone) -> Math.min(gone, nowMs));
            }
        }
    }

    /** A node sent GPU usage, naming the pod on the card when the exporter knows it (namespace and pod may be null). */
    public void usage(String cluster, String node, String namespace, String pod) {
        if (node != null && !node.isBlank()) {
            nodes.put(new NodeKey(cluster, node), Long.MAX_VALUE);
        }
        if (namespace != null && pod != null && !namespace.isBlank() && !pod.isBlank()) {
            pods.compute(new PodKey(cluster, namespace, pod), (k, p) -> new Place(
                    p != null && p.node() != null ? p.node() : node, Long.MAX_VALUE));
        }
    }

    public boolean gpuPod(String cluster, String namespace, String pod, long nowMs) {
        Place p = pods.get(new PodKey(cluster, namespace, pod));
        return p != null && nowMs - p.goneMs() <= graceMs;
    }

    /** The node a GPU pod runs on, when known. */
    public Optional<String> nodeOf(String cluster, String namespace, String pod) {
        Place p = pods.get(new PodKey(cluster, namespace, pod));
        return p == null ? Optional.empty() : Optional.ofNullable(p.node());
    }

    public boolean gpuNode(String cluster, String node, long nowMs) {
        Long gone = nodes.get(new NodeKey(cluster, node));
        return gone != null && nowMs - gone <= graceMs;
    }

    /** Forgets the pods and nodes gone for longer than the grace period. */
    public void prune(long nowMs) {
        pods.values().removeIf(p -> nowMs - p.goneMs() > graceMs);
        nodes.values().removeIf(gone -> nowMs - gone > graceMs);
    }

    public int pods() {
        return pods.size();
    }
}
