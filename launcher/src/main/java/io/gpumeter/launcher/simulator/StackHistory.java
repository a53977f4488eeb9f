package io.gpumeter.launcher.simulator;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The GPU stack's history, its instants known by hand whatever the seed ({@link StackInstants}): the stack's
 * DaemonSets and their pods ({@link StackRollouts}); the node versions its changes make; the windows in which a node
 * takes no new GPU work ({@link #outages}); and the job that waits through the crash loop.
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

    static final Duration JOB_AFTER_CRASH = Duration.ofMinutes(4);
    static final Duration JOB_RUNS = Duration.ofHours(2);
    static final int JOB_CARDS = 2;
    /** The scheduler tries an unschedulable pod again at least this often. */
    static final Duration RETRY_EVERY = Duration.ofMinutes(5);

    /** A stretch of time in which a node takes no new GPU work. */
    record Outage(Instant from, Instant to) {
        boolean covers(Instant at) {
            return !at.isBefore(from) && at.isBefore(to);
        }
    }

    private final Ids ids;
    private final StackInstants when;
    private final List<SimNode> nodes;
    private final SimNode wholeCard;
    private final SimNode mig;
    private final StackRollouts rollouts;

    StackHistory(long seed, SplittableRandom random, SimulationWindow window, List<SimNode> nodes) {
        this.ids = new Ids(random);
        this.when = new StackInstants(window);
        this.nodes = List.copyOf(nodes);
        this.wholeCard = only(GpuPool.WHOLE_CARD);
        this.mig = only(GpuPool.MIG);
        this.rollouts = new StackRollouts(seed, ids, when, this.nodes, wholeCard);
    }

    private SimNode only(GpuPool pool) {
        return nodes.stream().filter(n -> n.pool() == pool).findFirst()
                .orElseThrow(() -> new IllegalStateException("the fleet has no " + pool + " node"));
    }

    /** Where and when nodes take no new GPU work: the crash loop's node while it offers none, the MIG node until cut. */
    Map<String, List<Outage>> outages() {
        Map<String, List<Outage>> out = new HashMap<>();
        out.put(wholeCard.name(), List.of(new Outage(when.allocatableDownAt(), when.allocatableUpAt())));
        out.put(mig.name(), List.of(new Outage(when.start(), when.migAppliedAt())));
        return out;
    }

    /** What the stack has made of {@code node} at {@code at}. */
    NodeState nodeState(SimNode node, Instant at) {
        boolean upgraded = node.equals(wholeCard) && !at.isBefore(when.upgradeAt());
        boolean isMig = node.equals(mig);
        boolean pending = isMig && !at.isBefore(when.migPendingAt()) && at.isBefore(when.migAppliedAt());
        boolean applied = isMig && !at.isBefore(when.migAppliedAt());
        boolean pluginDown = node.equals(wholeCard) && !at.isBefore(when.allocatableDownAt())
                && at.isBefore(when.allocatableUpAt());
        Instant labelled = when.start();
        if (upgraded) {
            labelled = when.upgradeAt();
        }
        if (applied) {
            labelled = when.migAppliedAt();
        }
        return new NodeState(upgraded ? DRIVER_AFTER : DRIVER_BEFORE, upgraded ? CUDA_AFTER : CUDA_BEFORE,
                isMig ? (at.isBefore(when.migPendingAt()) ? MIG_DEFAULT : MIG_LAYOUT) : null,
                isMig ? (pending ? "pending" : "success") : null, applied, !pluginDown, labelled);
    }

    /** The instants after the start at which a node's labels or status change. */
    List<Instant> nodeChanges(SimNode node) {
        if (node.equals(wholeCard)) {
            return List.of(when.upgradeAt(), when.allocatableDownAt(), when.allocatableUpAt());
        }
        if (node.equals(mig)) {
            return List.of(when.migPendingAt(), when.migAppliedAt());
        }
        return List.of();
    }

    /**
     * The job that asks for two A100 cards while the whole-card node offers none: created four minutes into the crash
     * loop, refused by the scheduler, bound once the plugin is back. Made by its own factory, so that the workload's
     * draws stay as they were; named unlike any of {@code taken}.
     */
    PodStory waitingJob(StoryFactory factory, Collection<PodStory> taken) {
        Set<String> names = new HashSet<>();
        taken.forEach(s -> names.add(s.namespace + "/" + s.name));
        PodStory job;
        do {
            job = factory.story(Template.TRAINING, Tenancy.ACME_TRAINING, when.crashFrom().plus(JOB_AFTER_CRASH));
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
        Instant start = when.start();
        for (String ns : List.of("gpu-operator", "kube-system", "nvidia-dra-driver-gpu")) {
            timeline.add(start, EventType.ADDED, StackObjects.namespace(ns, ids.uid(), start));
        }
        rollouts.install(timeline);
        for (SimNode node : nodes) {
            for (Instant at : nodeChanges(node)) {
                timeline.add(at, EventType.MODIFIED, NodeObjects.node(node, start, nodeState(node, at)));
            }
        }
        rollouts.upgradeDriver(timeline);
        String crashing = rollouts.crashLoop(timeline);
        waitingEvents(timeline, waiting);
        rollouts.rollDcgmExporter(timeline);
        return new StackPlan(
                new StackPlan.DriverUpgrade(wholeCard.name(), DRIVER_BEFORE, DRIVER_AFTER, CUDA_BEFORE, CUDA_AFTER,
                        StackComponent.DRIVER.image(), StackComponent.NEXT_DRIVER_IMAGE, when.upgradeAt()),
                new StackPlan.MigReconfiguration(mig.name(), MIG_DEFAULT, MIG_LAYOUT, when.migPendingAt(),
                        when.migAppliedAt()),
                new StackPlan.CrashLoop(wholeCard.name(), StackComponent.DEVICE_PLUGIN.daemonSet(), crashing,
                        when.crashFrom(), when.crashTo(), when.allocatableDownAt(), when.allocatableUpAt(),
                        waiting.uid),
                new StackPlan.ImageUpdate(StackComponent.DCGM_EXPORTER.namespace(),
                        StackComponent.DCGM_EXPORTER.daemonSet(), StackComponent.DCGM_EXPORTER.image(),
                        StackComponent.NEXT_DCGM_EXPORTER_IMAGE, when.dcgmUpdateAt()),
                rollouts.livePods());
    }

    /** The scheduler's FailedScheduling event of the waiting job, a series while it keeps trying. */
    private void waitingEvents(Timeline timeline, PodStory job) {
        Instant first = job.createdAt.plusSeconds(1);
        Instant until = job.scheduledAt == null ? when.end() : job.scheduledAt;
        String name = job.name + "." + Long.toHexString(first.toEpochMilli() * 1_000_000L + 123_456L);
        String uid = ids.uid();
        int count = 0;
        for (Instant at = first; at.isBefore(until); at = at.plus(RETRY_EVERY)) {
            count++;
            timeline.add(at, count == 1 ? EventType.ADDED : EventType.MODIFIED, StackObjects.failedScheduling(
                    job.namespace, job.name, job.uid, name, uid, first, at, count, job.unschedulableMessage));
        }
    }
}
