package io.gpumeter.collector.host;

import io.gpumeter.common.fact.HostBatch;
import io.gpumeter.common.fact.HostContainerMinute;
import io.gpumeter.common.fact.HostNodeMinute;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Closed minutes as the facts the ledger stores, one batch per cluster. */
public final class HostFacts {

    /** The period the kernel takes when a quota comes without one (cgroup's default, 100 ms). */
    private static final double DEFAULT_PERIOD_US = 100_000;

    private HostFacts() {
    }

    public static List<HostBatch> batches(List<HostTracks.Closed> closed) {
        Map<String, List<HostContainerMinute>> containers = new LinkedHashMap<>();
        Map<String, List<HostNodeMinute>> nodes = new LinkedHashMap<>();
        for (HostTracks.Closed c : closed) {
            String cluster = c.key().cluster();
            if (c.key().source() == HostSource.CADVISOR) {
                containers.computeIfAbsent(cluster, k -> new ArrayList<>()).add(container(c.key().node(), c.minute()));
            } else {
                nodes.computeIfAbsent(cluster, k -> new ArrayList<>()).add(node(c.key().node(), c.minute()));
            }
        }
        List<HostBatch> out = new ArrayList<>();
        containers.forEach((cluster, rows) -> out.add(new HostBatch(cluster, rows, nodes.remove(cluster))));
        nodes.forEach((cluster, rows) -> out.add(new HostBatch(cluster, List.of(), rows)));
        return out;
    }

    static HostContainerMinute container(String node, HostTrack.Minute m) {
        return new HostContainerMinute(node, m.namespace(), m.pod(), m.container(), Instant.ofEpochMilli(m.minuteMs()),
                m.covered(), m.samples(), m.amount(HostSlot.CPU_SECONDS), m.amount(HostSlot.CFS_PERIODS),
                m.amount(HostSlot.CFS_THROTTLED_PERIODS), limitCores(m), m.amount(HostSlot.FS_READ_BYTES),
                m.amount(HostSlot.FS_WRITE_BYTES), m.amount(HostSlot.NET_RECEIVE_BYTES),
                m.amount(HostSlot.NET_TRANSMIT_BYTES));
    }

    static HostNodeMinute node(String node, HostTrack.Minute m) {
        Double cpus = m.gauge(HostSlot.NODE_CPUS);
        return new HostNodeMinute(node, Instant.ofEpochMilli(m.minuteMs()), m.covered(), m.samples(),
                cpus == null ? null : (int) Math.round(cpus), m.amount(HostSlot.NODE_CPU_IDLE),
                m.amount(HostSlot.NODE_CPU_IOWAIT), m.amount(HostSlot.NODE_CPU_USER), m.amount(HostSlot.NODE_CPU_SYSTEM),
                m.amount(HostSlot.NODE_CPU_OTHER), m.amount(HostSlot.NODE_CPU_PRESSURE_WAITING),
                m.amount(HostSlot.NODE_IO_PRESSURE_STALLED), m.amount(HostSlot.NODE_MEMORY_PRESSURE_STALLED),
                m.amount(HostSlot.NODE_NET_RECEIVE_BYTES), m.amount(HostSlot.NODE_NET_TRANSMIT_BYTES),
                m.amount(HostSlot.NODE_NET_RECEIVE_DROPS), m.amount(HostSlot.NODE_NET_TRANSMIT_DROPS));
    }

    /** The CPU limit in cores: quota over period; none without a positive quota (cAdvisor omits an unset one). */
    private static Double limitCores(HostTrack.Minute m) {
        Double quota = m.gauge(HostSlot.CPU_QUOTA);
        if (quota == null || quota <= 0) {
            return null;
        }
        Double period = m.gauge(HostSlot.CPU_PERIOD);
        return quota / (period == null || period <= 0 ? DEFAULT_PERIOD_US : period);
    }
}
