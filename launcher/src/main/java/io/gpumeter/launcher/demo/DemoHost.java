package io.gpumeter.launcher.demo;

import io.gpumeter.launcher.simulator.GpuPool;
import io.gpumeter.launcher.simulator.SimPod;

import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;

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
 * What the hosts' pages say of them is {@link HostPages}'.
 */
final class DemoHost {

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
}
