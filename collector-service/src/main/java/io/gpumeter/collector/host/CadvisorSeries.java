package io.gpumeter.collector.host;

import io.gpumeter.collector.usage.Sample;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiPredicate;

/**
 * Maps kubelet's cAdvisor series ({@code /metrics/cadvisor}) to the readings of GPU pods' cgroups. A container's
 * series go to its row; the pod's own cgroup (container "", no image) to the pod's row (container ""). The network is
 * read where cAdvisor reports it, per pod: on the sandbox (container "" with the pause image under containerd and
 * CRI-O, container "POD" under dockershim), never per container; the sandbox's own CPU and disk are left out, the pod's
 * cgroup already holds them. Labels of both generations are read ({@code container}/{@code pod} since Kubernetes 1.16,
 * {@code container_name}/{@code pod_name} before). Only {@code cpu="total"} is read of a per-CPU breakdown.
 */
public final class CadvisorSeries {

    private static final Map<String, HostSlot> METRICS = Map.of(
            "container_cpu_usage_seconds_total", HostSlot.CPU_SECONDS,
            "container_cpu_cfs_periods_total", HostSlot.CFS_PERIODS,
            "container_cpu_cfs_throttled_periods_total", HostSlot.CFS_THROTTLED_PERIODS,
            "container_spec_cpu_quota", HostSlot.CPU_QUOTA,
            "container_spec_cpu_period", HostSlot.CPU_PERIOD,
            "container_fs_reads_bytes_total", HostSlot.FS_READ_BYTES,
            "container_fs_writes_bytes_total", HostSlot.FS_WRITE_BYTES,
            "container_network_receive_bytes_total", HostSlot.NET_RECEIVE_BYTES,
            "container_network_transmit_bytes_total", HostSlot.NET_TRANSMIT_BYTES);
    private static final Set<HostSlot> NETWORK = Set.of(HostSlot.NET_RECEIVE_BYTES, HostSlot.NET_TRANSMIT_BYTES);
    /** dockershim's name for the sandbox (pause) container. */
    private static final String SANDBOX = "POD";

    private CadvisorSeries() {
    }

    /** The metric names read: what a Prometheus query for them selects. */
    public static Set<String> metricNames() {
        return METRICS.keySet();
    }

    /**
     * @param receivedAtMs when the body arrived: the time of samples without a timestamp
     * @param gpuPod       whether a namespace and pod name a GPU pod; other pods' series are left out
     * @throws HostInputException for a counter that is negative or not a number, or a gauge that is not a number
     */
    public static HostMapping map(List<Sample> samples, long receivedAtMs, BiPredicate<String, String> gpuPod) {
        HostMapping.Builder out = new HostMapping.Builder();
        Set<String> withTotal = new HashSet<>();
        Map<String, Long> scrapedAt = new HashMap<>();
        for (Sample s : samples) {
            if ("total".equals(s.label("cpu"))) {
                withTotal.add(s.name() + '|' + s.label("id"));
            }
            if (s.timestampMs().isPresent()) {
                scrapedAt.merge(String.valueOf(s.label("id")), s.timestampMs().getAsLong(), Math::max);
            }
        }
        for (Sample s : samples) {
            HostSlot slot = METRICS.get(s.name());
            if (slot == null) {
                out.unknown();
                continue;
            }
            HostValues.check(s, slot);
            String namespace = s.label("namespace", "pod_namespace");
            String pod = s.label("pod", "pod_name");
            String cpu = s.label("cpu");
            if (namespace == null || pod == null
                    || cpu != null && !cpu.equals("total") && withTotal.contains(s.name() + '|' + s.label("id"))) {
                out.other(); // the node's, the system's and the kubepods slices' own cgroups; a total's breakdown
                continue;
            }
            String container = container(s);
            String row = row(s, slot, container);
            if (row == null || !gpuPod.test(namespace, pod)) {
                out.other();
                continue;
            }
            String series = cpu == null || cpu.equals("total") ? series(s, slot) : series(s, slot) + "|" + cpu;
            // a kubelet stamps a cgroup's counters, not its spec: the spec is read as of the cgroup's scrape
            long at = HostValues.at(s, scrapedAt.getOrDefault(String.valueOf(s.label("id")), receivedAtMs));
            out.add(new HostReading(namespace, pod, row, slot, series, s.value(), at));
        }
        return out.build();
    }

    /** The container a series names, "" when it names none (the pod's cgroup or its sandbox). */
    private static String container(Sample s) {
        String c = s.labels().get("container");
        if (c == null) {
            c = s.labels().get("container_name");
        }
        return c == null ? "" : c;
    }

    /** The row the series adds to, or null when the pod's row already has it from another cgroup. */
    private static String row(Sample s, HostSlot slot, String container) {
        boolean sandbox = container.equals(SANDBOX) || container.isEmpty() && !podCgroup(s);
        if (!container.isEmpty() && !sandbox) {
            return container;
        }
        if (NETWORK.contains(slot)) {
            return ""; // the pod's network, wherever cAdvisor reports it
        }
        return sandbox ? null : "";
    }

    /** The pod-level cgroup names no image and no container runtime name; the sandbox names both. */
    private static boolean podCgroup(Sample s) {
        return s.label("image") == null && s.label("name") == null;
    }

    /** The cgroup, and the interface or device when the series is one of several of the cgroup. */
    private static String series(Sample s, HostSlot slot) {
        String cgroup = s.label("id");
        String part = NETWORK.contains(slot) ? s.label("interface") : s.label("device");
        return (cgroup == null ? "" : cgroup) + (part == null ? "" : "|" + part);
    }
}
