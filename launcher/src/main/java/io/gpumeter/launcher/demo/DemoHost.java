package io.gpumeter.launcher.demo;

import io.gpumeter.launcher.simulator.GpuPool;
import io.gpumeter.launcher.simulator.SimNode;
import io.gpumeter.launcher.simulator.SimPod;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * What the hosts say, once a minute, as kubelet's cAdvisor and node-exporter expose it: every GPU pod's cgroup (CPU,
 * CFS periods, its CPU limit, disk), its sandbox's network, and every GPU node's CPU, pressure and network. Three
 * stories are in it:
 * <ul>
 *   <li>the second inference service's pod is CPU-throttled at its limit for twenty minutes and its requests slow;
 *   so is a Triton server on a MIG instance, whose instance idles while it waits;</li>
 *   <li>a training job on a whole-card node stalls on I/O for twenty-five minutes: its node's I/O pressure high, the
 *   job reading hard, its card idle;</li>
 *   <li>the second service's card is held at its software power cap for ten minutes (dcgm-exporter's clocks-event
 *   reasons), and the service's requests slow.</li>
 * </ul>
 * Counters are cumulative from the start of the usage span, as a process that ran before it would show them.
 */
final class DemoHost {

    static final String PAUSE_IMAGE = "registry.k8s.io/pause:3.10";
    /** Every container's CPU limit: 4 cores, as CFS writes it. */
    static final long QUOTA_US = 400_000;
    static final long PERIOD_US = 100_000;
    static final int CPUS = 16;
    /** SW power cap, NVML's nvmlClocksEventReasonSwPowerCap. */
    static final int SW_POWER_CAP = 0x4;
    static final int GPU_IDLE = 0x1;

    private final DemoSignals signals;
    private final SimPod cpuPod;
    private final SimPod ioPod;
    private final SimPod idleCpuPod;

    DemoHost(DemoSignals signals) {
        this.signals = signals;
        List<DemoSignals.InferenceService> services = signals.services();
        this.cpuPod = services.size() > 1 ? services.get(1).pod() : null;
        Instant from = ioFrom();
        Instant to = ioTo();
        this.ioPod = signals.plan().pods().stream()
                .filter(p -> p.pool() == GpuPool.WHOLE_CARD && !p.grants().isEmpty() && p.holdsAt(from) && p.holdsAt(to)
                        && !p.nodeName().equals(signals.sharedNode()))
                .min(Comparator.comparing(SimPod::scheduledAt).thenComparing(SimPod::uid)).orElse(null);
        Instant cpuFrom = cpuFrom();
        Instant cpuTo = cpuTo();
        // an instance of its own: what it does not do is not hidden by a neighbour's work on the same card
        this.idleCpuPod = signals.plan().pods().stream()
                .filter(p -> p.pool() == GpuPool.MIG && !p.grants().isEmpty() && p.holdsAt(cpuFrom) && p.holdsAt(cpuTo))
                .min(Comparator.comparing((SimPod p) -> p.owner() != null && "ReplicaSet".equals(p.owner().kind()) ? 0 : 1)
                        .thenComparing(SimPod::scheduledAt).thenComparing(SimPod::uid)).orElse(null);
    }

    Instant cpuFrom() {
        return signals.usageTo().minus(Duration.ofMinutes(100));
    }

    Instant cpuTo() {
        return cpuFrom().plus(Duration.ofMinutes(20));
    }

    Instant ioFrom() {
        return signals.usageTo().minus(Duration.ofMinutes(140));
    }

    Instant ioTo() {
        return ioFrom().plus(Duration.ofMinutes(25));
    }

    Instant capFrom() {
        return signals.usageTo().minus(Duration.ofMinutes(60));
    }

    Instant capTo() {
        return capFrom().plus(Duration.ofMinutes(10));
    }

    /** The pod throttled at its CPU limit, or null when the history has no second service. */
    SimPod cpuPod() {
        return cpuPod;
    }

    /** The MIG inference pod throttled at its CPU limit while its instance idles, or null when none runs then. */
    SimPod idleCpuPod() {
        return idleCpuPod;
    }

    /** The job stalled on I/O, or null when no whole-card job runs through its stretch. */
    SimPod ioPod() {
        return ioPod;
    }

    /** The card held at its power cap: the second service's. */
    String cappedCard() {
        return cpuPod == null ? null : cpuPod.grants().get(0).gpuUuid();
    }

    boolean cpuThrottled(SimPod pod, Instant minute) {
        return (pod == cpuPod || pod == idleCpuPod) && within(minute, cpuFrom(), cpuTo());
    }

    boolean ioStalled(SimPod pod, Instant minute) {
        return pod == ioPod && within(minute, ioFrom(), ioTo());
    }

    boolean nodeIoPressured(String node, Instant minute) {
        return ioPod != null && ioPod.nodeName().equals(node) && within(minute, ioFrom(), ioTo());
    }

    boolean powerCapped(String gpuUuid, Instant minute) {
        return gpuUuid.equals(cappedCard()) && within(minute, capFrom(), capTo());
    }

    /** Whether the pod's work waits on its host in this minute: its card then stays idle. */
    boolean waitsOnHost(SimPod pod, Instant minute) {
        return cpuThrottled(pod, minute) || ioStalled(pod, minute);
    }

    /** Whether a service's requests are slowed by its host or its card in this minute. */
    boolean slowsService(SimPod pod, Instant minute) {
        return cpuThrottled(pod, minute) || pod == cpuPod && within(minute, capFrom(), capTo());
    }

    /** dcgm-exporter's clocks-event reasons of a card in a minute: the power cap, else idle, else none. */
    int clockEvents(String gpuUuid, double sm, Instant minute) {
        if (powerCapped(gpuUuid, minute)) {
            return SW_POWER_CAP;
        }
        return sm == 0 ? GPU_IDLE : 0;
    }

    private static boolean within(Instant minute, Instant from, Instant to) {
        return !minute.isBefore(from) && minute.isBefore(to);
    }

    /** cAdvisor's and node-exporter's pages of every GPU node, a minute at a time, counters carried across minutes. */
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
        boolean throttled = cpuThrottled(pod, minute);
        double cores = throttled ? 3.97 : 0.8 + 0.8 * n;
        double periods = 60.0 * 1_000_000 / PERIOD_US;
        double throttledPeriods = throttled ? 0.72 * periods : Math.round(0.01 * periods * n);
        double reads = ioStalled(pod, minute) ? 950e6 : 2e6 * (1 + n);
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
        boolean io = nodeIoPressured(node.name(), minute);
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
