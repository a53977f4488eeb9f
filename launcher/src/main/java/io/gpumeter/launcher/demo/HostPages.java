package io.gpumeter.launcher.demo;

import io.gpumeter.launcher.simulator.SimNode;
import io.gpumeter.launcher.simulator.SimPod;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The hosts' pages once a minute, as kubelet's cAdvisor and node-exporter expose them: every GPU pod's cgroup (CPU,
 * CFS periods, its CPU limit, disk), its sandbox's network, and every GPU node's CPU, pressure and network, telling
 * the stories of {@link DemoHost}. Counters are cumulative from the start of the usage span, as a process that ran
 * before it would show them.
 */
final class HostPages {

    static final String PAUSE_IMAGE = "registry.k8s.io/pause:3.10";
    /** Every container's CPU limit: 4 cores, as CFS writes it. */
    static final long QUOTA_US = 400_000;
    static final long PERIOD_US = 100_000;
    static final int CPUS = 16;

    private final DemoSignals signals;
    private final DemoHost host;

    HostPages(DemoSignals signals, DemoHost host) {
        this.signals = signals;
        this.host = host;
    }

    /** Every GPU node's pages, a minute at a time, counters carried across minutes. */
    List<DemoSignals.Push> pushes() {
        List<DemoSignals.Push> out = new ArrayList<>();
        Map<String, Double> totals = new LinkedHashMap<>();
        for (Instant minute : signals.minutes()) {
            long ts = minute.plusSeconds(30).toEpochMilli();
            for (SimNode node : signals.plan().nodes()) {
                StringBuilder cadvisor = new StringBuilder();
                for (SimPod pod : signals.plan().pods()) {
                    if (node.name().equals(pod.nodeName()) && !pod.grants().isEmpty() && pod.holdsAt(minute.plusSeconds(30))) {
                        podPage(cadvisor, totals, pod, minute, ts);
                    }
                }
                if (cadvisor.length() > 0) {
                    out.add(new DemoSignals.Push("collector", "/api/v1/ingest/cadvisor?node=" + node.name(), "text/plain",
                            cadvisor.toString()));
                }
                out.add(new DemoSignals.Push("collector", "/api/v1/ingest/node-exporter?node=" + node.name(), "text/plain",
                        nodePage(totals, node, minute, ts)));
            }
        }
        return out;
    }

    private void podPage(StringBuilder page, Map<String, Double> totals, SimPod pod, Instant minute, long ts) {
        String cgroup = "/kubepods/burstable/pod" + pod.uid();
        String podLabels = "container=\"\",id=\"" + cgroup + "\",image=\"\",name=\"\",namespace=\"" + pod.namespace()
                + "\",pod=\"" + pod.name() + "\"";
        String containerLabels = "container=\"" + container(pod) + "\",id=\"" + cgroup + "/" + pod.uid().substring(0, 8)
                + "\",image=\"gpu-workload\",name=\"" + container(pod) + "\",namespace=\"" + pod.namespace() + "\",pod=\""
                + pod.name() + "\"";
        String sandboxLabels = "container=\"\",id=\"" + cgroup + "/sandbox\",image=\"" + PAUSE_IMAGE
                + "\",interface=\"eth0\",name=\"sandbox\",namespace=\"" + pod.namespace() + "\",pod=\"" + pod.name() + "\"";
        double n = noise(pod.uid(), minute);
        boolean throttled = host.cpuThrottled(pod, minute);
        double cores = throttled ? 3.97 : 0.8 + 0.8 * n;
        double periods = 60.0 * 1_000_000 / PERIOD_US;
        double throttledPeriods = throttled ? 0.72 * periods : Math.round(0.01 * periods * n);
        double reads = host.ioStalled(pod, minute) ? 950e6 : 2e6 * (1 + n);
        for (String labels : List.of(podLabels, containerLabels)) {
            counter(page, totals, "container_cpu_usage_seconds_total", labels + ",cpu=\"total\"", cores * 60, ts);
            counter(page, totals, "container_cpu_cfs_periods_total", labels, periods, ts);
            counter(page, totals, "container_cpu_cfs_throttled_periods_total", labels, throttledPeriods, ts);
            gauge(page, "container_spec_cpu_quota", labels, QUOTA_US, ts);
            gauge(page, "container_spec_cpu_period", labels, PERIOD_US, ts);
            counter(page, totals, "container_fs_reads_bytes_total", labels + ",device=\"/dev/nvme0n1\"", reads, ts);
            counter(page, totals, "container_fs_writes_bytes_total", labels + ",device=\"/dev/nvme0n1\"", 1e6 * n, ts);
        }
        counter(page, totals, "container_network_receive_bytes_total", sandboxLabels, 6e6 * (1 + n), ts);
        counter(page, totals, "container_network_transmit_bytes_total", sandboxLabels, 2e6 * (1 + n), ts);
    }

    private String nodePage(Map<String, Double> totals, SimNode node, Instant minute, long ts) {
        StringBuilder page = new StringBuilder();
        boolean io = host.nodeIoPressured(node.name(), minute);
        double n = noise(node.name(), minute);
        for (int cpu = 0; cpu < CPUS; cpu++) {
            String labels = "cpu=\"" + cpu + "\"";
            double iowait = io ? 24 : 0.3;
            double user = 18 + 6 * n;
            double system = 3;
            nodeCounter(page, totals, node, "node_cpu_seconds_total", labels + ",mode=\"iowait\"", iowait, ts);
            nodeCounter(page, totals, node, "node_cpu_seconds_total", labels + ",mode=\"user\"", user, ts);
            nodeCounter(page, totals, node, "node_cpu_seconds_total", labels + ",mode=\"system\"", system, ts);
            nodeCounter(page, totals, node, "node_cpu_seconds_total", labels + ",mode=\"idle\"",
                    60 - iowait - user - system, ts);
        }
        unlabelled(page, totals, "node_pressure_cpu_waiting_seconds_total", node.name(), 1.2 + n, ts);
        unlabelled(page, totals, "node_pressure_io_stalled_seconds_total", node.name(), io ? 42 : 0.4 + 0.3 * n, ts);
        unlabelled(page, totals, "node_pressure_memory_stalled_seconds_total", node.name(), 0.1, ts);
        String eth = "device=\"eth0\"";
        nodeCounter(page, totals, node, "node_network_receive_bytes_total", eth, 120e6 * (1 + n), ts);
        nodeCounter(page, totals, node, "node_network_transmit_bytes_total", eth, 40e6 * (1 + n), ts);
        nodeCounter(page, totals, node, "node_network_receive_drop_total", eth, 0, ts);
        nodeCounter(page, totals, node, "node_network_transmit_drop_total", eth, 0, ts);
        return page.toString();
    }

    /** A container's name as the simulator's templates give it. */
    static String container(SimPod pod) {
        boolean job = pod.owner() != null && "Job".equals(pod.owner().kind());
        boolean served = pod.owner() != null && "ReplicaSet".equals(pod.owner().kind());
        return switch (pod.pool()) {
            case WHOLE_CARD -> "trainer";
            case MIG -> served ? "triton" : "worker";
            case HAMI -> served ? "server" : job ? "eval" : "notebook";
            default -> "main";
        };
    }

    private static void counter(StringBuilder page, Map<String, Double> totals, String name, String labels,
                                double increase, long ts) {
        double total = totals.merge(name + "{" + labels + "}", increase, Double::sum);
        page.append(name).append('{').append(labels).append("} ").append(String.format(Locale.ROOT, "%.3f", total))
                .append(' ').append(ts).append('\n');
    }

    /** A node's counter: its running total is the node's own. */
    private static void nodeCounter(StringBuilder page, Map<String, Double> totals, SimNode node, String name,
                                    String labels, double increase, long ts) {
        double total = totals.merge(node.name() + "/" + name + "{" + labels + "}", increase, Double::sum);
        page.append(name).append('{').append(labels).append("} ").append(String.format(Locale.ROOT, "%.3f", total))
                .append(' ').append(ts).append('\n');
    }

    /** A counter node-exporter writes without labels (the pressure stall information). */
    private static void unlabelled(StringBuilder page, Map<String, Double> totals, String name, String node,
                                   double increase, long ts) {
        double total = totals.merge(node + "/" + name, increase, Double::sum);
        page.append(name).append(' ').append(String.format(Locale.ROOT, "%.3f", total)).append(' ').append(ts).append('\n');
    }

    private static void gauge(StringBuilder page, String name, String labels, double value, long ts) {
        page.append(name).append('{').append(labels).append("} ").append(String.format(Locale.ROOT, "%.0f", value))
                .append(' ').append(ts).append('\n');
    }

    private double noise(String key, Instant minute) {
        return new SplittableRandom(signals.plan().seed() ^ key.hashCode() * 17L ^ minute.getEpochSecond()).nextDouble();
    }
}
