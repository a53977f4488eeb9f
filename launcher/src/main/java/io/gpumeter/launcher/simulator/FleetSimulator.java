package io.gpumeter.launcher.simulator;

import io.fabric8.kubernetes.client.KubernetesClient;

import java.io.IOException;
import java.io.Writer;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A deterministic GPU fleet history: the same seed and end instant give the same events, byte for byte. The
 * history spans at least ten days before {@code end} and always crosses a month boundary (see
 * {@link SimulationWindow}); nothing in it depends on the wall clock except through {@code end}.
 */
public final class FleetSimulator {

    public static final long DEFAULT_SEED = 42;

    private final long seed;
    private final Instant end;
    private Plan plan;

    public FleetSimulator(long seed, Instant end) {
        this.seed = seed;
        this.end = end.truncatedTo(ChronoUnit.SECONDS);
    }

    /** A history ending now, truncated to the minute. */
    public FleetSimulator(long seed) {
        this(seed, defaultEnd(Clock.systemUTC()));
    }

    public static Instant defaultEnd(Clock clock) {
        return clock.instant().truncatedTo(ChronoUnit.MINUTES);
    }

    public long seed() {
        return seed;
    }

    public Instant end() {
        return end;
    }

    /** The history, made once and kept. */
    public synchronized Plan plan() {
        if (plan == null) {
            plan = makePlan();
        }
        return plan;
    }

    /** Writes the history as newline-delimited watch events, the collector's replay format. */
    public void toNdjson(Writer out) throws IOException {
        NdjsonWriter.write(plan(), out);
    }

    /** Replays the history, in order, into an API server (meant for the mock server in CRUD mode). */
    public void applyTo(KubernetesClient client) {
        new ClusterWriter(client).apply(plan());
    }

    private Plan makePlan() {
        SplittableRandom root = new SplittableRandom(seed);
        Ids fleetIds = new Ids(root.split());
        Ids tenancyIds = new Ids(root.split());
        SplittableRandom workloadRandom = root.split();
        SplittableRandom placementRandom = root.split();

        SimulationWindow window = SimulationWindow.endingAt(end);
        long spanSeconds = window.span().toSeconds();
        Instant relabelAt = window.start().plusSeconds((long) (spanSeconds * (0.45 + 0.25 * root.nextDouble())));
        // drawn after everything else, so that the GPU stack's history leaves the rest of it as it was
        SplittableRandom stackRandom = root.split();
        // drawn last of all, for the same reason
        SplittableRandom volcanoRandom = root.split();

        List<SimNode> scheduled = Fleet.build(fleetIds);
        SimNode draNode = DraPool.node(fleetIds);
        List<SimNode> nodes = new ArrayList<>(scheduled);
        nodes.add(draNode);
        List<SimNamespace> namespaces = Tenancy.build(tenancyIds, window.start(), relabelAt);
        List<PodStory> stories = new Workload(seed, workloadRandom, window, relabelAt).stories();
        StackHistory stack = new StackHistory(seed, stackRandom.split(), window, nodes);
        PodStory waiting = stack.waitingJob(new StoryFactory(seed, stackRandom.split(), window), stories);

        // the DRA pool's pods follow a fixed plan of their own (DraPool); the scheduler places the others, the job
        // that waits for the crash-looping device plugin first, so that the cards it waits for are there for it
        Scheduler scheduler = new Scheduler(scheduled, stack.outages());
        if (!scheduler.place(waiting, waiting.createdAt.plusSeconds(1), window.end(), 0)) {
            throw new IllegalStateException("the job waiting for the device plugin never fits");
        }
        for (PodStory story : stories) {
            Instant desired = story.createdAt.plusSeconds(placementRandom.nextInt(1, 4));
            scheduler.place(story, desired, window.end(), placementRandom.nextInt(scheduled.size()));
        }
        // the Volcano Jobs' pods take the capacity the others left
        VolcanoJobs volcano = new VolcanoJobs(seed, volcanoRandom, window);
        volcano.place(scheduler);

        Timeline timeline = new Timeline(window.end());
        for (SimNamespace ns : namespaces) {
            timeline.add(window.start(), EventType.ADDED, NamespaceObjects.namespace(ns, window.start()));
        }
        for (SimNode node : nodes) {
            timeline.add(window.start(), EventType.ADDED,
                    NodeObjects.node(node, window.start(), stack.nodeState(node, window.start())));
        }
        for (SimNamespace ns : namespaces) {
            for (TenantPeriod period : ns.tenants().subList(1, ns.tenants().size())) {
                timeline.add(period.since(), EventType.MODIFIED, NamespaceObjects.namespace(ns, period.since()));
            }
        }
        StackPlan stackPlan = stack.addTo(timeline, waiting);
        List<SimPod> pods = new ArrayList<>();
        for (PodStory story : stories) {
            PodEvents.add(story, timeline);
            pods.add(Truths.of(story, window.end()));
        }
        PodEvents.add(waiting, timeline);
        pods.add(Truths.of(waiting, window.end()));
        for (PodStory story : volcano.stories()) {
            PodEvents.add(story, timeline);
            pods.add(Truths.of(story, window.end()));
        }
        pods.addAll(DraPool.add(draNode, fleetIds, seed, window, timeline));
        return new Plan(seed, window, relabelAt, timeline.events(), nodes, namespaces, pods, stackPlan, volcano.jobs());
    }
}
