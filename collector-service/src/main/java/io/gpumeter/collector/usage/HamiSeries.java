package io.gpumeter.collector.usage;

import io.gpumeter.common.fact.UsageField;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Maps HAMi vGPU monitor samples (port 9394) to usage observations, under both the {@code hami_*} names of 2026 and
 * the older names still served with {@code --legacy-metrics}: per-container vGPU memory used and limit and core
 * utilization, keyed by device UUID and namespace/pod/container, plus the card-level utilization and memory.
 */
public final class HamiSeries {

    private record Rule(UsageField field, ValueScale scale, boolean perContainer) {
    }

    // HAMi's *_utilization_ratio metrics are percentages 0..100 despite the suffix (its metrics reference says so)
    private static final Map<String, Rule> RULES = Map.of(
            "hami_vgpu_memory_used_bytes", new Rule(UsageField.VGPU_MEMORY_USED_MIB, ValueScale.BYTES, true),
            "vGPU_device_memory_usage_in_bytes", new Rule(UsageField.VGPU_MEMORY_USED_MIB, ValueScale.BYTES, true),
            "hami_vgpu_memory_limit_bytes", new Rule(UsageField.VGPU_MEMORY_LIMIT_MIB, ValueScale.BYTES, true),
            "vGPU_device_memory_limit_in_bytes", new Rule(UsageField.VGPU_MEMORY_LIMIT_MIB, ValueScale.BYTES, true),
            "hami_container_device_utilization_ratio", new Rule(UsageField.VGPU_CORE_UTIL, ValueScale.PERCENT, true),
            "Device_utilization_desc_of_container", new Rule(UsageField.VGPU_CORE_UTIL, ValueScale.PERCENT, true),
            "hami_host_gpu_utilization_ratio", new Rule(UsageField.GPU_UTIL, ValueScale.PERCENT, false),
            "HostCoreUtilization", new Rule(UsageField.GPU_UTIL, ValueScale.PERCENT, false),
            "hami_host_gpu_memory_used_bytes", new Rule(UsageField.FB_USED_MIB, ValueScale.BYTES, false),
            "HostGPUMemoryUsage", new Rule(UsageField.FB_USED_MIB, ValueScale.BYTES, false));

    private HamiSeries() {
    }

    /** The metric names read, both generations. */
    public static Set<String> metricNames() {
        return RULES.keySet();
    }

    /**
     * @param receivedAt when the body arrived: the time of samples without a timestamp
     * @param node       the node the monitor runs on (its series carry none); null to use a {@code node} label
     */
    public static UsageMapping map(List<Sample> samples, Instant receivedAt, String node) {
        UsageMapping.Builder out = new UsageMapping.Builder();
        String given = node == null || node.isBlank() ? null : node;
        for (Sample sample : samples) {
            Rule rule = RULES.get(sample.name());
            if (rule == null) {
                out.unknown();
                continue;
            }
            String uuid = sample.label("device_uuid", "deviceuuid");
            if (uuid == null) {
                out.invalid(sample, "no device_uuid label");
                continue;
            }
            Double value = rule.scale().normalise(sample.value());
            if (value == null) {
                out.invalid(sample, "value " + sample.value() + " is not a " + rule.scale().describe());
                continue;
            }
            String onNode = given != null ? given : sample.label("node");
            if (!rule.perContainer()) {
                out.add(UsageObservation.device(uuid, onNode, null, rule.field(), value,
                        DcgmSeries.at(sample, receivedAt)));
                continue;
            }
            String namespace = sample.label("namespace", "podnamespace");
            String pod = sample.label("pod", "podname");
            if (namespace == null || pod == null) {
                out.invalid(sample, "no namespace and pod labels");
                continue;
            }
            out.add(new UsageObservation(uuid, onNode, null, null, null, namespace, pod,
                    sample.label("container", "ctrname"), rule.field(), value, DcgmSeries.at(sample, receivedAt)));
        }
        return out.build();
    }
}
