package io.gpumeter.ledger.triage.pending;

import io.gpumeter.common.fact.NodeTaint;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One node as it stood at the instant a wait is judged: its labels, what it offers of each GPU resource, whether it
 * takes pods, its device plugin and what is held on it.
 *
 * @param labels      every label the ledger holds for it (its node version's and its status's GPU labels)
 * @param labelsKnown false when only its status is stored (its GPU labels alone): a selector on other labels cannot
 *                    be judged against it
 * @param statusAt    when the status version read was observed; null when no status is stored (capacity,
 *                    allocatable, cordon and taints then unknown)
 * @param held        units held on it at the instant, per GPU resource they count against
 */
public record NodeAt(String name, Map<String, String> labels, boolean labelsKnown, Instant statusAt,
                     Map<String, Long> capacity, Map<String, Long> allocatable, boolean cordoned, List<NodeTaint> taints,
                     DevicePlugin plugin, Map<String, Long> held) {

    public NodeAt {
        labels = labels == null ? Map.of() : Map.copyOf(labels);
        capacity = capacity == null ? Map.of() : Map.copyOf(capacity);
        allocatable = allocatable == null ? Map.of() : Map.copyOf(allocatable);
        taints = taints == null ? List.of() : List.copyOf(taints);
        held = held == null ? Map.of() : Map.copyOf(held);
        plugin = plugin == null ? DevicePlugin.UNKNOWN : plugin;
    }

    public boolean statusKnown() {
        return statusAt != null;
    }

    /** What it has of a resource: its capacity, else what GPU feature discovery counts for whole GPUs, else 0. */
    public long has(String resource) {
        Long c = capacity.get(resource);
        if (c != null && c > 0) {
            return c;
        }
        Long a = allocatable.get(resource);
        if (a != null && a > 0) {
            return a;
        }
        if (Resources.GPU.equals(resource)) {
            try {
                return Long.parseLong(labels.getOrDefault(Resources.GPU_COUNT_LABEL, "0"));
            } catch (NumberFormatException e) {
                return 0;
            }
        }
        return 0;
    }

    public long allocatable(String resource) {
        return allocatable.getOrDefault(resource, 0L);
    }

    public long held(String resource) {
        return held.getOrDefault(resource, 0L);
    }

    /**
     * Whether its device plugin does not report the resource: allocatable 0 while the node has it, or the plugin's pod
     * not ready or absent.
     */
    public boolean notReporting(String resource) {
        return statusKnown() && allocatable(resource) == 0 && has(resource) > 0
                || plugin.state() == DevicePlugin.State.NOT_READY || plugin.state() == DevicePlugin.State.ABSENT;
    }
}
