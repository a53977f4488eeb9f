package io.gpumeter.launcher.simulator;

import io.fabric8.kubernetes.api.model.apps.DaemonSet;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

import static io.gpumeter.launcher.simulator.StackObjects.Counts;
import static io.gpumeter.launcher.simulator.StackObjects.Stage;
import static io.gpumeter.launcher.simulator.StackObjects.View;

/**
 * The GPU stack's history, counted back from the end (or, for the MIG layout, on from the start) so that its
 * instants are known by hand whatever the seed (see {@link StackPlan}): the stack's DaemonSets and their pods on every
 * GPU node they select, ready from the start; the node versions its changes make; the windows in which a node takes no
 * new GPU work ({@link #outages}); and the job that waits through the crash loop.
 * <p>
 * The MIG layout is applied at the start, before the first MIG pod can arrive: applied later it would have to
 * evict the MIG pool's work, which the MIG manager leaves to the operator.
 */
final class StackHistory {

    static final String DRIVER_BEFORE = "550.54.15";
    static final String DRIVER_AFTER = "560.35.03";
    static final String CUDA_BEFORE = "12.4";
    static final String CUDA_AFTER = "12.6";
    /** The GPU Operator's default layout (migManager.config.default), and the MIG pool's. */
    static final String MIG_DEFAULT = "all-disabled";
    static final String MIG_LAYOUT = "all-balanced";

    static final Duration UPGRADE_BEFORE_END = Duration.ofDays(2);
    /** The ClusterPolicy names the new driver this long before feature discovery sees it on the upgraded node. */
    static final Duration ROLLOUT_BEFORE_UPGRADE = Duration.ofMinutes(15);
    /** The node's driver pod is deleted (the operator's autoUpgrade is off: an administrator does it)... */
    static final Duration POD_DELETED_BEFORE_UPGRADE = Duration.ofMinutes(10);
    /** ...and its successor's startup probe passes once the modules are built and loaded. */
    static final Duration READY_BEFORE_UPGRADE = Duration.ofMinutes(1);
    static final Duration MIG_PENDING_AFTER_START = Duration.ofMinutes(2);
    static final Duration MIG_APPLIED_AFTER_PENDING = Duration.ofMinutes(5);
    static final Duration CRASH_LOOP_BEFORE_END = Duration.ofHours(20);
    static final Duration CRASH_LOOP_FOR = Duration.ofMinutes(20);
    /** The kubelet counts the plugin's devices unhealthy a few seconds after it dies, and again once it registers. */
    static final long ALLOCATABLE_DOWN_AFTER = 5;
    static final long ALLOCATABLE_UP_AFTER = 3;
    /** How long each failed run of the crash-looping container lasts. */
    static final long FAILED_RUN_SECONDS = 5;
    static final Duration JOB_AFTER_CRASH = Duration.ofMinutes(4);
    static final Duration JOB_RUNS = Duration.ofHours(2);
    static final int JOB_CARDS = 2;
    /** The scheduler tries an unschedulable pod again at least this often. */
    static final Duration RETRY_EVERY = Duration.ofMinutes(5);
    static final Duration DCGM_UPDATE_BEFORE_END = Duration.ofHours(6);

    /** A stretch of time in which a node takes no new GPU work. */
    record Outage(Instant from, Instant to) {
        boolean covers(Instant at) {
            return !at.isBefore(from) && at.isBefore(to);
        }
    }

    private final long seed;
    private final Ids ids;
    private final SimulationWindow window;
    private final List<SimNode> nodes;
    private final SimNode wholeCard;
    private final SimNode mig;
    private final String policyUid;
    private final Map<StackComponent, String> daemonSetUids = new EnumMap<>(StackComponent.class);
    /** Each component's pods of the moment, by node name. */
    private final Map<StackComponent, Map<String, StackPod>> live = new EnumMap<>(StackComponent.class);

    StackHistory(long seed, SplittableRandom random, SimulationWindow window, List<SimNode> nodes) {
        this.seed = seed;
        this.ids = new Ids(random);
        this.window = window;
        this.nodes = List.copyOf(nodes);
        this.wholeCard = only(GpuPool.WHOLE_CARD);
        this.mig = only(GpuPool.MIG);
        this.policyUid = ids.uid();
        for (StackComponent c : StackComponent.values()) {
            daemonSetUids.put(c, ids.uid());
        }
    }

    private SimNode only(GpuPool pool) {
        return nodes.stream().filter(n -> n.pool() == pool).findFirst()
                .orElseThrow(() -> new IllegalStateException("the fleet has no " + pool + " node"));
    }

    Instant upgradeAt() {
        return window.end().minus(UPGRADE_BEFORE_END);
    }

    Instant migPendingAt() {
        return window.start().plus(MIG_PENDING_AFTER_START);
    }

    Instant migAppliedAt() {
        return migPendingAt().plus(MIG_APPLIED_AFTER_PENDING);
    }

    Instant crashFrom() {
        return window.end().minus(CRASH_LOOP_BEFORE_END);
    }

    /**
     * When the device plugin starts and stays up: its first restart once {@link #CRASH_LOOP_FOR} has passed (what
     * failed it is fixed by then), the kubelet's back-off deciding the instant.
     */
    Instant crashTo() {
        List<Instant> failures = failures();
        Instant last = failures.get(failures.size() - 1);
        return last.plusSeconds(backOff(failures.size() - 1));
    }

    /** The crash-looping container's failures: it runs {@link #FAILED_RUN_SECONDS} after each restart, then fails. */
    List<Instant> failures() {
        List<Instant> out = new ArrayList<>();
        Instant failure = crashFrom();
        Instant fixed = crashFrom().plus(CRASH_LOOP_FOR);
        for (int k = 0; ; k++) {
            out.add(failure);
            Instant restart = failure.plusSeconds(backOff(k));
            if (!restart.isBefore(fixed)) {
                return out;
            }
            failure = restart.plusSeconds(FAILED_RUN_SECONDS);
        }
    }

    /** The kubelet's back-off after the {@code k}-th failure (from 0): 10 s, doubling, at most 300 s. */
    static long backOff(int k) {
        return Math.min(10L << Math.min(k, 5), 300);
    }

    Instant allocatableDownAt() {
        return crashFrom().plusSeconds(ALLOCATABLE_DOWN_AFTER);
    }

    Instant allocatableUpAt() {
        return crashTo().plusSeconds(ALLOCATABLE_UP_AFTER);
    }

    Instant dcgmUpdateAt() {
        return window.end().minus(DCGM_UPDATE_BEFORE_END);
    }

    /** Where and when nodes take no new GPU work: the crash loop's node while it offers none, the MIG node until cut. */
    Map<String, List<Outage>> outages() {
        Map<String, List<Outage>> out = new HashMap<>();
        out.put(wholeCard.name(), List.of(new Outage(allocatableDownAt(), allocatableUpAt())));
        out.put(mig.name(), List.of(new Outage(window.start(), migAppliedAt())));
        return out;
    }

    /** What the stack has made of {@code node} at {@code at}. */
    NodeState nodeState(SimNode node, Instant at) {
        boolean upgraded = node.equals(wholeCard) && !at.isBefore(upgradeAt());
        boolean isMig = node.equals(mig);
        boolean pending = isMig && !at.isBefore(migPendingAt()) && at.isBefore(migAppliedAt());
        boolean applied = isMig && !at.isBefore(migAppliedAt());
        boolean pluginDown = node.equals(wholeCard) && !at.isBefore(allocatableDownAt()) && at.isBefore(allocatableUpAt());
        Instant labelled = window.start();
        if (upgraded) {
            labelled = upgradeAt();
        }
        if (applied) {
            labelled = migAppliedAt();
        }
        return new NodeState(upgraded ? DRIVER_AFTER : DRIVER_BEFORE, upgraded ? CUDA_AFTER : CUDA_BEFORE,
                isMig ? (at.isBefore(migPendingAt()) ? MIG_DEFAULT : MIG_LAYOUT) : null,
                isMig ? (pending ? "pending" : "success") : null, applied, !pluginDown, labelled);
    }

    /** The instants after the start at which a node's labels or status change. */
    List<Instant> nodeChanges(SimNode node) {
        if (node.equals(wholeCard)) {
            return List.of(upgradeAt(), allocatableDownAt(), allocatableUpAt());
        }
        if (node.equals(mig)) {
            return List.of(migPendingAt(), migAppliedAt());
        }
        return List.of();
    }

    /**
     * The job that asks for two A100 cards while the whole-card node offers none: created four minutes into the crash
     * loop, refused by the scheduler, bound once the plugin is back. Made by its own factory, so that the workload's
     * draws stay as they were; named unlike any of {@code taken}.
     */
    PodStory waitingJob(StoryFactory factory, Collection<PodStory> taken) {
        Set<String> names = new java.util.HashSet<>();
        taken.forEach(s -> names.add(s.namespace + "/" + s.name));
        PodStory job;
        do {
            job = factory.story(Template.TRAINING, Tenancy.ACME_TRAINING, crashFrom().plus(JOB_AFTER_CRASH));
        } while (names.contains(job.namespace + "/" + job.name));
        job.wholeCards = JOB_CARDS;
        job.nodeSelector = Map.of("nvidia.com/gpu.product", wholeCard.model());
        // the whole-card node offers none, the MIG node none of nvidia.com/gpu, the others are no A100s
        long selected = nodes.stream().filter(n -> n.pool() == GpuPool.WHOLE_CARD || n.pool() == GpuPool.MIG).count();
        long others = nodes.size() - selected;
        job.unschedulableMessage = "0/" + nodes.size() + " nodes are available: " + selected
                + " Insufficient nvidia.com/gpu, " + others + " node(s) didn't match Pod's node affinity/selector. "
                + "preemption: 0/" + nodes.size() + " nodes are available: " + selected
                + " No preemption victims found for incoming pod, " + others
                + " Preemption is not helpful for scheduling.";
        return job.ending(PodStory.Plot.COMPLETE, JOB_RUNS).exit(0, "Completed").ttl(600);
    }

    /** Adds the stack's objects to the history and says what happened. */
    StackPlan addTo(Timeline timeline, PodStory waiting) {
        Instant start = window.start();
        for (String ns : List.of("gpu-operator", "kube-system", "nvidia-dra-driver-gpu")) {
            timeline.add(start, EventType.ADDED, StackObjects.namespace(ns, ids.uid(), start));
        }
        for (StackComponent c : StackComponent.values()) {
            timeline.add(start, EventType.ADDED, daemonSet(c, 1, c.image(), counts(c, 0, 0)));
        }
        for (StackComponent c : StackComponent.values()) {
            for (SimNode node : selected(c)) {
                StackPod pod = newPod(c, node, c.image(), 1, start);
                timeline.add(start, EventType.ADDED, pod(pod, View.of(Stage.READY, start.plusSeconds(3))));
            }
        }
        for (SimNode node : nodes) {
            for (Instant at : nodeChanges(node)) {
                timeline.add(at, EventType.MODIFIED, NodeObjects.node(node, start, nodeState(node, at)));
            }
        }
        String upgradedPod = upgradeDriver(timeline);
        String crashing = crashLoop(timeline);
        waitingEvents(timeline, waiting);
        rollDcgmExporter(timeline);
        List<StackPlan.LivePod> pods = new ArrayList<>();
        live.forEach((c, byNode) -> byNode.values().forEach(p -> pods.add(new StackPlan.LivePod(c.namespace(), p.name(),
                c.daemonSet(), p.node().name(), p.image()))));
        return new StackPlan(
                new StackPlan.DriverUpgrade(wholeCard.name(), DRIVER_BEFORE, DRIVER_AFTER, CUDA_BEFORE, CUDA_AFTER,
                        StackComponent.DRIVER.image(), StackComponent.NEXT_DRIVER_IMAGE, upgradeAt()),
                new StackPlan.MigReconfiguration(mig.name(), MIG_DEFAULT, MIG_LAYOUT, migPendingAt(), migAppliedAt()),
                new StackPlan.CrashLoop(wholeCard.name(), StackComponent.DEVICE_PLUGIN.daemonSet(), crashing, crashFrom(),
                        crashTo(), allocatableDownAt(), allocatableUpAt(), waiting.uid),
                new StackPlan.ImageUpdate(StackComponent.DCGM_EXPORTER.namespace(),
                        StackComponent.DCGM_EXPORTER.daemonSet(), StackComponent.DCGM_EXPORTER.image(),
                        StackComponent.NEXT_DCGM_EXPORTER_IMAGE, dcgmUpdateAt()),
                pods);
    }

    /**
     * The ClusterPolicy names the new driver (the DaemonSet's template changes, its pods stay: OnDelete); the upgraded
     * node's driver pod is deleted, its successor builds the modules and passes its startup probe, and feature
     * discovery relabels the node (see {@link #nodeChanges}). Returns the new pod's name.
     */
    private String upgradeDriver(Timeline timeline) {
        StackComponent c = StackComponent.DRIVER;
        Instant rollout = upgradeAt().minus(ROLLOUT_BEFORE_UPGRADE);
        int desired = selected(c).size();
        timeline.add(rollout, EventType.MODIFIED, daemonSet(c, 2, StackComponent.NEXT_DRIVER_IMAGE,
                new Counts(desired, desired, 0)));
        Instant deleted = upgradeAt().minus(POD_DELETED_BEFORE_UPGRADE);
        stop(timeline, c, wholeCard, deleted, 20);
        timeline.add(deleted.plusSeconds(21), EventType.MODIFIED, daemonSet(c, 2,
                StackComponent.NEXT_DRIVER_IMAGE, new Counts(desired, desired - 1, 0)));
        StackPod next = newPod(c, wholeCard, StackComponent.NEXT_DRIVER_IMAGE, 2, deleted.plusSeconds(22));
        timeline.add(next.createdAt(), EventType.ADDED, pod(next, View.of(Stage.CREATING, next.createdAt())));
        Instant started = next.createdAt().plusSeconds(20);
        timeline.add(started, EventType.MODIFIED, pod(next, View.of(Stage.STARTING, started)));
        Instant ready = upgradeAt().minus(READY_BEFORE_UPGRADE);
        timeline.add(ready, EventType.MODIFIED, pod(next, View.of(Stage.READY, ready)));
        timeline.add(ready, EventType.MODIFIED, daemonSet(c, 2, StackComponent.NEXT_DRIVER_IMAGE,
                new Counts(desired, desired, 1)));
        return next.name();
    }

    /**
     * The device plugin of the whole-card node fails every time it starts, and the kubelet backs off 10 s, 20 s, …
     * up to 300 s between restarts; at {@link #crashTo} it starts and stays up. Returns the pod's name.
     */
    private String crashLoop(Timeline timeline) {
        StackComponent c = StackComponent.DEVICE_PLUGIN;
        StackPod pod = live.get(c).get(wholeCard.name());
        int desired = selected(c).size();
        timeline.add(crashFrom(), EventType.MODIFIED, daemonSet(c, 1, c.image(),
                new Counts(desired, desired - 1, desired)));
        Instant runStart = window.start().plusSeconds(3);
        List<Instant> failures = failures();
        for (int k = 0; k < failures.size(); k++) {
            Instant failure = failures.get(k);
            timeline.add(failure, EventType.MODIFIED, pod(pod, new View(Stage.CRASH_LOOP, crashFrom(), k, runStart,
                    failure, backOff(k), null, null)));
            if (k < failures.size() - 1) {
                runStart = failure.plusSeconds(backOff(k));
            }
        }
        Instant lastFailure = failures.get(failures.size() - 1);
        timeline.add(crashTo(), EventType.MODIFIED, pod(pod, new View(Stage.READY, crashTo(), failures.size(),
                runStart, lastFailure, 0, null, null)));
        timeline.add(crashTo(), EventType.MODIFIED, daemonSet(c, 1, c.image(),
                new Counts(desired, desired, desired)));
        return pod.name();
    }

    /** The scheduler's FailedScheduling event of the waiting job, a series while it keeps trying. */
    private void waitingEvents(Timeline timeline, PodStory job) {
        Instant first = job.createdAt.plusSeconds(1);
        Instant until = job.scheduledAt == null ? window.end() : job.scheduledAt;
        String name = job.name + "." + Long.toHexString(first.toEpochMilli() * 1_000_000L + 123_456L);
        String uid = ids.uid();
        int count = 0;
        for (Instant at = first; at.isBefore(until); at = at.plus(RETRY_EVERY)) {
            count++;
            timeline.add(at, count == 1 ? EventType.ADDED : EventType.MODIFIED, StackObjects.failedScheduling(
                    job.namespace, job.name, job.uid, name, uid, first, at, count, job.unschedulableMessage));
        }
    }

    /** The dcgm-exporter DaemonSet's new image, rolled node by node, one unavailable at a time. */
    private void rollDcgmExporter(Timeline timeline) {
        StackComponent c = StackComponent.DCGM_EXPORTER;
        String image = StackComponent.NEXT_DCGM_EXPORTER_IMAGE;
        List<SimNode> order = selected(c);
        int desired = order.size();
        Instant at = dcgmUpdateAt();
        timeline.add(at, EventType.MODIFIED, daemonSet(c, 2, image, new Counts(desired, desired, 0)));
        at = at.plusSeconds(2);
        int updated = 0;
        for (SimNode node : order) {
            stop(timeline, c, node, at, 2);
            timeline.add(at.plusSeconds(3), EventType.MODIFIED, daemonSet(c, 2, image,
                    new Counts(desired, desired - 1, updated)));
            StackPod next = newPod(c, node, image, 2, at.plusSeconds(4));
            timeline.add(next.createdAt(), EventType.ADDED, pod(next, View.of(Stage.CREATING, next.createdAt())));
            Instant ready = next.createdAt().plusSeconds(20);
            timeline.add(ready, EventType.MODIFIED, pod(next, View.of(Stage.READY, ready)));
            updated++;
            timeline.add(ready, EventType.MODIFIED, daemonSet(c, 2, image, new Counts(desired, desired, updated)));
            at = ready.plusSeconds(1);
        }
    }

    /**
     * Deletes a component's pod on a node the way a graceful delete goes: marked at {@code at} with 30 s of grace,
     * its containers stopped {@code stopSeconds} later, then gone.
     */
    private void stop(Timeline timeline, StackComponent c, SimNode node, Instant at, long stopSeconds) {
        StackPod old = live.get(c).remove(node.name());
        Instant deadline = at.plusSeconds(30);
        View running = View.of(Stage.READY, old.createdAt().plusSeconds(3));
        timeline.add(at, EventType.MODIFIED, pod(old, running.deleting(deadline, 30)));
        Instant stopped = at.plusSeconds(stopSeconds);
        View done = View.of(Stage.STOPPED, stopped);
        timeline.add(stopped, EventType.MODIFIED, pod(old, done.deleting(deadline, 30)));
        timeline.add(stopped.plusSeconds(1), EventType.DELETED, pod(old, done.deleting(at, 0)));
    }

    private List<SimNode> selected(StackComponent c) {
        return nodes.stream().filter(n -> c.runsOn(n.pool())).sorted(Comparator.comparing(SimNode::name)).toList();
    }

    private Counts counts(StackComponent c, int notReady, int updatedLess) {
        int desired = selected(c).size();
        return new Counts(desired, desired - notReady, desired - updatedLess);
    }

    private StackPod newPod(StackComponent c, SimNode node, String image, long generation, Instant created) {
        List<String> containerIds = new ArrayList<>();
        c.containers().forEach(name -> containerIds.add(ids.containerId()));
        String podIp = NodeObjects.podCidr(node).replace(".0/24", "." + (200 + c.ordinal() * 4 + (int) generation));
        StackPod pod = new StackPod(c, node, c.daemonSet() + "-" + ids.suffix(5), ids.uid(), image, generation,
                Ids.templateHash(seed, c.namespace() + "/" + c.daemonSet(), (int) generation), created, podIp,
                containerIds);
        live.computeIfAbsent(c, k -> new LinkedHashMap<>()).put(node.name(), pod);
        return pod;
    }

    private io.fabric8.kubernetes.api.model.Pod pod(StackPod pod, View view) {
        return StackObjects.pod(pod, daemonSetUids.get(pod.component()), view);
    }

    private DaemonSet daemonSet(StackComponent c, long generation, String image, Counts counts) {
        return StackObjects.daemonSet(c, daemonSetUids.get(c), policyUid, window.start(), generation, image, counts);
    }
}
