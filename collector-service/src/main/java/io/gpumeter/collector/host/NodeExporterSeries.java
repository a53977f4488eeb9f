package io.gpumeter.collector.host;

import io.gpumeter.collector.usage.Sample;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Maps node-exporter's series to a node's readings: CPU seconds by mode (nice, irq, softirq and steal together as
 * "other"), pressure stall seconds (CPU waiting, I/O and memory stalled), and the bytes and drops of the node's own
 * network devices — those matching the excluded pattern (loopback, pods' veths, bridges, tunnels) are left out, or a
 * pod's traffic would count twice. The CPUs a scrape reports are counted as a gauge.
 */
public final class NodeExporterSeries {

    private static final Map<String, HostSlot> METRICS = Map.of(
            "node_pressure_cpu_waiting_seconds_total", HostSlot.NODE_CPU_PRESSURE_WAITING,
            "node_pressure_io_stalled_seconds_total", HostSlot.NODE_IO_PRESSURE_STALLED,
            "node_pressure_memory_stalled_seconds_total", HostSlot.NODE_MEMORY_PRESSURE_STALLED,
            "node_network_receive_bytes_total", HostSlot.NODE_NET_RECEIVE_BYTES,
            "node_network_transmit_bytes_total", HostSlot.NODE_NET_TRANSMIT_BYTES,
            "node_network_receive_drop_total", HostSlot.NODE_NET_RECEIVE_DROPS,
            "node_network_transmit_drop_total", HostSlot.NODE_NET_TRANSMIT_DROPS);
    private static final String CPU = "node_cpu_seconds_total";
    private static final Map<String, HostSlot> MODES = Map.of(
            "idle", HostSlot.NODE_CPU_IDLE, "iowait", HostSlot.NODE_CPU_IOWAIT, "user", HostSlot.NODE_CPU_USER,
            "system", HostSlot.NODE_CPU_SYSTEM, "nice", HostSlot.NODE_CPU_OTHER, "irq", HostSlot.NODE_CPU_OTHER,
            "softirq", HostSlot.NODE_CPU_OTHER, "steal", HostSlot.NODE_CPU_OTHER);

    private NodeExporterSeries() {
    }

    /** The metric names read: what a Prometheus query for them selects. */
    public static Set<String> metricNames() {
        Set<String> names = new TreeSet<>(METRICS.keySet());
        names.add(CPU);
        return names;
    }

    /**
     * @param receivedAtMs    when the body arrived: the time of samples without a timestamp
     * @param excludedDevices network devices that are not the node's own
     * @throws HostInputException for a counter that is negative or not a number
     */
    public static HostMapping map(List<Sample> samples, long receivedAtMs, Pattern excludedDevices) {
        HostMapping.Builder out = new HostMapping.Builder();
        Set<String> cpus = new TreeSet<>();
        long cpusAt = Long.MIN_VALUE;
        for (Sample s : samples) {
            HostSlot slot = s.name().equals(CPU) ? HostSlot.NODE_CPU_IDLE : METRICS.get(s.name());
            if (slot == null) {
                out.unknown();
                continue;
            }
            HostValues.check(s, slot);
            long at = HostValues.at(s, receivedAtMs);
            String series;
            if (s.name().equals(CPU)) {
                String mode = s.label("mode");
                slot = mode == null ? null : MODES.get(mode);
                String cpu = s.label("cpu");
                if (slot == null || cpu == null) {
                    out.other();
                    continue;
                }
                cpus.add(cpu);
                cpusAt = Math.max(cpusAt, at);
                series = cpu + '|' + mode;
            } else if (s.name().startsWith("node_network_")) {
                String device = s.label("device");
                if (device == null || excludedDevices.matcher(device).matches()) {
                    out.other();
                    continue;
                }
                series = device;
            } else {
                series = "";
            }
            out.add(new HostReading(null, null, null, slot, series, s.value(), at));
        }
        if (!cpus.isEmpty()) {
            out.add(new HostReading(null, null, null, HostSlot.NODE_CPUS, "", cpus.size(), cpusAt));
        }
        return out.build();
    }
}
