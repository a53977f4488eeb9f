package io.gpumeter.collector.kubernetes;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Taint;
import io.gpumeter.common.fact.NodeStatusFact;
import io.gpumeter.common.fact.NodeTaint;
import io.gpumeter.common.fact.WatchEventType;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reduces a Node to what it offers the GPU stack's workloads: the capacity and allocatable of its GPU resources,
 * its cordon and taints, its labels of NVIDIA's domain and its annotations of gpumeter's own. Whatever else a node
 * carries — thousands of labels of other domains included — is not read. Skip reasons name no object, so that they
 * stay few as metric tags.
 */
public final class NodeStatusTranslator {

    /** The domain of the annotations the suite's runbook actions write on a node. */
    public static final String SUITE_DOMAIN = "gpumeter.io/";

    /** Far above what feature discovery, the MIG manager and the operator write (some 40): a node past it is garbled. */
    static final int MAX_GPU_LABELS = 1_000;
    /** The API server's limits on a label's key (prefix 253, a slash, name 63) and value. */
    static final int MAX_LABEL_KEY = 317;
    static final int MAX_LABEL_VALUE = 63;
    static final int MAX_SUITE_ANNOTATIONS = 100;
    /** A runbook action's annotation names the action and the alert's summary: a few hundred characters. */
    static final int MAX_SUITE_ANNOTATION_VALUE = 4_096;
    static final int MAX_TAINTS = 256;
    static final int MAX_RESOURCES = 256;

    private NodeStatusTranslator() {
    }

    public static NodeStatusFact translate(Node node, WatchEventType type, Instant observedAt, NodeStatusSettings settings) {
        ObjectMeta meta = Objects.metadata(node.getMetadata(), false);
        Instant createdAt = Timestamps.parse(meta.getCreationTimestamp(), "metadata.creationTimestamp");
        var status = node.getStatus();
        Map<String, Long> capacity = resources(status == null ? null : status.getCapacity(), "status.capacity", settings);
        Map<String, Long> allocatable = resources(status == null ? null : status.getAllocatable(), "status.allocatable",
                settings);
        var spec = node.getSpec();
        boolean unschedulable = spec != null && Boolean.TRUE.equals(spec.getUnschedulable());
        return new NodeStatusFact(meta.getName(), meta.getUid(), meta.getResourceVersion(), type,
                ManagedFieldTimes.written(meta.getManagedFields(), type, observedAt), createdAt,
                capacity, allocatable, unschedulable, taints(spec == null ? null : spec.getTaints()),
                gpuLabels(meta.getLabels(), settings), suiteAnnotations(meta.getAnnotations()));
    }

    private static Map<String, Long> resources(Map<String, Quantity> quantities, String field, NodeStatusSettings settings) {
        Map<String, Long> out = new TreeMap<>();
        if (quantities == null) {
            return out;
        }
        for (Map.Entry<String, Quantity> e : quantities.entrySet()) {
            if (e.getKey() != null && settings.isGpuResource(e.getKey())) {
                if (out.size() == MAX_RESOURCES) {
                    throw new Skip("node status: more than " + MAX_RESOURCES + " GPU resources in " + field);
                }
                out.put(e.getKey(), whole(e.getValue(), field));
            }
        }
        return out;
    }

    /** An extended resource is counted in whole units; anything else is not what a device plugin reports. */
    static long whole(Quantity quantity, String field) {
        String amount = quantity == null ? null : quantity.getAmount();
        if (amount != null && (quantity.getFormat() == null || quantity.getFormat().isEmpty())
                && !amount.isEmpty() && amount.length() <= 18 && amount.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return Long.parseLong(amount);
        }
        if (amount == null || amount.isBlank()) {
            throw new Skip("node status: a GPU resource in " + field + " is not a whole, non-negative count");
        }
        try {
            BigDecimal value = quantity.getNumericalAmount();
            if (value == null || value.signum() < 0 || value.stripTrailingZeros().scale() > 0) {
                throw new Skip("node status: a GPU resource in " + field + " is not a whole, non-negative count");
            }
            return value.longValueExact();
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw new Skip("node status: a GPU resource in " + field + " is not a whole, non-negative count");
        }
    }

    private static List<NodeTaint> taints(List<Taint> taints) {
        List<NodeTaint> out = new ArrayList<>();
        if (taints == null) {
            return out;
        }
        if (taints.size() > MAX_TAINTS) {
            throw new Skip("node status: more than " + MAX_TAINTS + " taints");
        }
        for (Taint t : taints) {
            if (t == null || t.getKey() == null || t.getKey().isBlank()) {
                throw new Skip("node status: spec.taints[] without key");
            }
            out.add(new NodeTaint(t.getKey(), t.getValue(), t.getEffect()));
        }
        return out;
    }

    private static Map<String, String> gpuLabels(Map<String, String> labels, NodeStatusSettings settings) {
        Map<String, String> out = new TreeMap<>();
        if (labels == null) {
            return out;
        }
        for (Map.Entry<String, String> e : labels.entrySet()) {
            String key = e.getKey();
            if (key == null || !key.startsWith(GpuResources.DOMAIN) || settings.ignoredLabels().contains(key)) {
                continue;
            }
            String value = e.getValue() == null ? "" : e.getValue();
            if (key.length() > MAX_LABEL_KEY || value.length() > MAX_LABEL_VALUE) {
                throw new Skip("node status: a label of " + GpuResources.DOMAIN + " longer than the API server allows");
            }
            if (out.size() == MAX_GPU_LABELS) {
                throw new Skip("node status: more than " + MAX_GPU_LABELS + " labels of " + GpuResources.DOMAIN);
            }
            out.put(key, value);
        }
        return out;
    }

    private static Map<String, String> suiteAnnotations(Map<String, String> annotations) {
        Map<String, String> out = new TreeMap<>();
        if (annotations == null) {
            return out;
        }
        for (Map.Entry<String, String> e : annotations.entrySet()) {
            if (e.getKey() == null || !e.getKey().startsWith(SUITE_DOMAIN)) {
                continue;
            }
            String value = e.getValue() == null ? "" : e.getValue();
            if (value.length() > MAX_SUITE_ANNOTATION_VALUE) {
                throw new Skip("node status: an annotation of " + SUITE_DOMAIN + " longer than "
                        + MAX_SUITE_ANNOTATION_VALUE + " characters");
            }
            if (out.size() == MAX_SUITE_ANNOTATIONS) {
                throw new Skip("node status: more than " + MAX_SUITE_ANNOTATIONS + " annotations of " + SUITE_DOMAIN);
            }
            out.put(e.getKey(), value);
        }
        return out;
    }
}
