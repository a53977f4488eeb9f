package io.gpumeter.collector.kubernetes;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.gpumeter.collector.governance.GovernanceTranslator;
import io.gpumeter.collector.governance.PodStatusTranslator;
import io.gpumeter.common.fact.DeviceClassFact;
import io.gpumeter.common.fact.FactBatch;
import io.gpumeter.common.fact.FactBundle;
import io.gpumeter.common.fact.GovernanceBatch;
import io.gpumeter.common.fact.NamespaceFact;
import io.gpumeter.common.fact.NodeFact;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.common.fact.ResourceClaimFact;
import io.gpumeter.common.fact.ResourceSliceFact;
import io.gpumeter.common.fact.StackPodFact;
import io.gpumeter.common.fact.WatchEventType;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Collects the facts of a stream of watch events, counting the events it skips by reason; one instance per
 * replay request or per delivery batch. Every event is read against one {@link GpuStack}: which DaemonSets,
 * Deployments and pods are the GPU stack's, and what a node's status keeps.
 */
public final class FactSink {

    private static final String NO_GPU = "no GPU requested";

    private final List<NamespaceFact> namespaces = new ArrayList<>();
    private final List<NodeFact> nodes = new ArrayList<>();
    private final List<PodFact> pods = new ArrayList<>();
    private final List<ResourceClaimFact> claims = new ArrayList<>();
    private final List<ResourceSliceFact> slices = new ArrayList<>();
    private final List<DeviceClassFact> deviceClasses = new ArrayList<>();
    private final List<Object> governance = new ArrayList<>();
    /**
     * The GPU-stack facts of this sink's own events, compared as they come: a replay of a node's heartbeats holds one
     * status per change, not one per line. Sinks read apart are compared once more when gathered.
     */
    private final ContentChanges sameAsBefore = new ContentChanges(Integer.MAX_VALUE);
    private final Map<String, Integer> skipped = new TreeMap<>();
    private boolean handedOver;
    private final GpuStack stack;

    /** A sink that knows no GPU-stack component and keeps a node's status by the defaults. */
    public FactSink() {
        this(GpuStack.NONE);
    }

    public FactSink(GpuStack stack) {
        this.stack = stack == null ? GpuStack.NONE : stack;
    }

    /** An empty sink reading events against the same GPU stack, for events read apart and added later. */
    public FactSink fresh() {
        return new FactSink(stack);
    }

    /** Adds one event's fact, or counts why it has none. */
    public void accept(WatchEventType type, HasMetadata object, Instant observedAt) {
        String stackPod = object instanceof Pod pod ? stackPod(type, pod, observedAt) : null;
        try {
            if (object instanceof Pod pod) {
                PodFact fact = PodTranslator.translate(pod, type, observedAt);
                pods.add(fact);
                governance.add(PodStatusTranslator.translate(pod, fact));
            } else if (GovernanceTranslator.handles(object)) {
                governance.add(GovernanceTranslator.translate(type, object, observedAt));
            } else if (StackWorkloadTranslator.handles(object)) {
                governed(StackWorkloadTranslator.translate(object, type, observedAt, stack.components()));
            } else if (object instanceof Node node) {
                node(type, node, observedAt);
            } else if (object instanceof Namespace namespace) {
                namespaces.add(NamespaceTranslator.translate(namespace, type, observedAt));
            } else if (object instanceof ResourceClaim claim) {
                claims.add(ResourceClaimTranslator.translate(claim, type, observedAt));
            } else if (object instanceof ResourceSlice slice) {
                slices.add(ResourceSliceTranslator.translate(slice, type, observedAt));
            } else if (object instanceof DeviceClass deviceClass) {
                deviceClasses.add(DeviceClassTranslator.translate(deviceClass, type, observedAt));
            } else {
                skip("kind " + (object == null ? "missing" : object.getKind()) + " not metered yet");
            }
        } catch (Skip e) {
            // a component's pod asks for no GPU: that is what it is, not a reason it went missing; and a reason its
            // stack fact was skipped for is counted once
            if (stackPod == null || !(NO_GPU.equals(e.reason()) || stackPod.equals(e.reason()))) {
                skip(e.reason());
            }
        }
    }

    /**
     * Adds a pod's GPU-stack fact only: for pods of a stack namespace that the metering watch does not cover. A pod
     * there that is no component's is counted as such.
     */
    public void acceptStackPod(WatchEventType type, Pod pod, Instant observedAt) {
        if (stackPod(type, pod, observedAt) == null) {
            skip("pod of a GPU-stack namespace that is no component's");
        }
    }

    /**
     * Adds the pod's stack fact when it is a component's pod: null when it is none, else "" when its fact was kept or
     * the reason it was skipped for.
     */
    private String stackPod(WatchEventType type, Pod pod, Instant observedAt) {
        try {
            StackPodFact fact = StackPodTranslator.translate(pod, type, observedAt, stack.components());
            if (fact == null) {
                return null;
            }
            governed(fact);
            return "";
        } catch (Skip e) {
            skip(e.reason());
            return e.reason();
        }
    }

    /**
     * A node's metering fact (labels, HAMi's registration) and its status fact (what it offers), each kept or
     * skipped on its own: a garbled HAMi annotation loses no allocatable, 10,000 labels lose no metering.
     */
    private void node(WatchEventType type, Node node, Instant observedAt) {
        Objects.metadata(node.getMetadata(), false); // a node without its key is one skipped event, not two
        try {
            governed(NodeStatusTranslator.translate(node, type, observedAt, stack.nodeStatus()));
        } catch (Skip e) {
            skip(e.reason().startsWith("node status: ") ? e.reason() : "node status: " + e.reason());
        }
        nodes.add(NodeTranslator.translate(node, type, observedAt));
    }

    private void governed(Object stackFact) {
        if (sameAsBefore.isNews("", stackFact)) {
            governance.add(stackFact);
        }
    }

    /** Appends what {@code later} collected from the events after this sink's, as if one sink had read them all. */
    public void addAll(FactSink later) {
        namespaces.addAll(later.namespaces);
        nodes.addAll(later.nodes);
        pods.addAll(later.pods);
        claims.addAll(later.claims);
        slices.addAll(later.slices);
        deviceClasses.addAll(later.deviceClasses);
        governance.addAll(later.governance);
        later.skipped.forEach((reason, count) -> skipped.merge(reason, count, Integer::sum));
    }

    /** Hands each pod version and governance fact collected so far to {@code each}, as collected (before hand-over). */
    public void forEachCollected(java.util.function.Consumer<Object> each) {
        pods.forEach(each);
        governance.forEach(each);
    }

    public void skip(String reason) {
        skipped.merge(reason, 1, Integer::sum);
    }

    public int facts() {
        return namespaces.size() + nodes.size() + pods.size() + claims.size() + slices.size() + deviceClasses.size();
    }

    public int skippedCount() {
        return skipped.values().stream().mapToInt(Integer::intValue).sum();
    }

    public Map<String, Integer> skippedByReason() {
        return Map.copyOf(skipped);
    }

    /** Every fact collected, namespaces and nodes before pods, Dynamic Resource Allocation objects last. */
    public List<Object> all() {
        List<Object> all = new ArrayList<>(namespaces);
        all.addAll(nodes);
        all.addAll(pods);
        all.addAll(deviceClasses);
        all.addAll(slices);
        all.addAll(claims);
        return all;
    }

    /**
     * Governance facts (queues, admission, events, the governance view of GPU pods, the GPU stack's state);
     * delivered separately. A GPU-stack fact that says what the last one of its object said is left out: the events
     * of one request are compared among themselves, in their order.
     */
    public List<Object> governanceFacts() {
        ContentChanges within = new ContentChanges(Integer.MAX_VALUE);
        return governance.stream().filter(fact -> within.isNews("", fact)).toList();
    }

    public GovernanceBatch governanceBatch(String cluster) {
        return GovernanceBatch.of(cluster, governanceFacts());
    }

    public FactBatch batch(String cluster) {
        return new FactBatch(cluster, namespaces, nodes, pods, claims, slices, deviceClasses);
    }

    /**
     * Everything collected as one bundle (metering and governance, the pods' views carried by their versions), handed
     * over once: the sink keeps only its counts of skipped events afterwards. A replay request's facts are then
     * garbage once its bundle is written, instead of staying reachable from the request while the ledger stores it,
     * seconds in which every young collection copied tens of thousands of them.
     */
    public FactBundle handOver(String cluster) {
        if (handedOver) {
            throw new IllegalStateException("a sink's facts are handed over once");
        }
        handedOver = true;
        GovernanceBatch governed = governanceBatch(cluster);
        FactBatch facts = facts() == 0 ? null : batch(cluster);
        List.of(namespaces, nodes, pods, claims, slices, deviceClasses, governance).forEach(List::clear);
        sameAsBefore.clear();
        return FactBundle.carrying(facts, governed.size() == 0 ? null : governed);
    }
}
