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
import io.gpumeter.common.fact.WatchEventType;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Collects the facts of a stream of watch events, counting the events it skips by reason; one instance per
 * replay request or per delivery batch.
 */
public final class FactSink {

    private final List<NamespaceFact> namespaces = new ArrayList<>();
    private final List<NodeFact> nodes = new ArrayList<>();
    private final List<PodFact> pods = new ArrayList<>();
    private final List<ResourceClaimFact> claims = new ArrayList<>();
    private final List<ResourceSliceFact> slices = new ArrayList<>();
    private final List<DeviceClassFact> deviceClasses = new ArrayList<>();
    private final List<Object> governance = new ArrayList<>();
    private final Map<String, Integer> skipped = new TreeMap<>();
    private boolean handedOver;

    /** Adds one event's fact, or counts why it has none. */
    public void accept(WatchEventType type, HasMetadata object, Instant observedAt) {
        try {
            if (object instanceof Pod pod) {
                PodFact fact = PodTranslator.translate(pod, type, observedAt);
                pods.add(fact);
                governance.add(PodStatusTranslator.translate(pod, fact));
            } else if (GovernanceTranslator.handles(object)) {
                governance.add(GovernanceTranslator.translate(type, object, observedAt));
            } else if (object instanceof Node node) {
                nodes.add(NodeTranslator.translate(node, type, observedAt));
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
            skip(e.reason());
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

    /** Governance facts (queues, admission, events, the governance view of GPU pods); delivered separately. */
    public List<Object> governanceFacts() {
        return List.copyOf(governance);
    }

    public GovernanceBatch governanceBatch(String cluster) {
        return GovernanceBatch.of(cluster, governance);
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
        return FactBundle.carrying(facts, governed.size() == 0 ? null : governed);
    }
}
