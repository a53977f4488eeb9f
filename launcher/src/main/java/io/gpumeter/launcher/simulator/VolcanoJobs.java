package io.gpumeter.launcher.simulator;

import io.gpumeter.launcher.simulator.SimVolcanoJob.Phase;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

import static io.gpumeter.launcher.simulator.Tenancy.ACME_TRAINING;
import static io.gpumeter.launcher.simulator.Tenancy.UMBRELLA_RESEARCH;

/**
 * A few Volcano Jobs in the Volcano queue {@value #QUEUE}, their workers on whole cards, placed after every other pod
 * so that they take the capacity left and the rest of the history stays as it would be without them: a gang of two
 * one-card workers and a two-card worker that complete, a worker that fails on every attempt until its controller
 * gives up after {@value #MAX_RETRY} restarts (policy PodFailed: RestartJob), and a gang that asks for more cards
 * than the queue's capability, so Volcano never enqueues it and makes none of its pods: it waits at the end. As
 * Volcano's job controller does, a restart deletes the attempt's pods and makes them anew under the same names; the
 * pods of an attempt are made once the gang is enqueued, just before they are bound.
 */
final class VolcanoJobs {

    static final String API_VERSION = "batch.volcano.sh/v1alpha1";
    static final String QUEUE = "vision";
    static final String TASK = "worker";
    static final int MAX_RETRY = 3;
    /** After a pod fails: the job restarts, its pods are gone, it is Pending again, its new pods are asked for. */
    private static final long RESTART_SECONDS = 1;
    private static final long DELETE_SECONDS = 3;
    private static final long REQUEUE_SECONDS = 5;
    private static final long RECREATE_SECONDS = 10;

    /** One job's plan: created this long before the end, its gang, how long an attempt runs, whether it fails. */
    private record Spec(String namespace, String name, Duration beforeEnd, int workers, int cards, Duration run,
                        boolean fails) {
    }

    private static final List<Spec> SPECS = List.of(
            new Spec(UMBRELLA_RESEARCH, "resnet-sweep", Duration.ofHours(30), 2, 1, Duration.ofHours(3), false),
            new Spec(ACME_TRAINING, "vit-finetune", Duration.ofHours(20), 1, 2, Duration.ofMinutes(110), false),
            new Spec(UMBRELLA_RESEARCH, "detr-train", Duration.ofHours(12), 1, 1, Duration.ofMinutes(25), true),
            new Spec(UMBRELLA_RESEARCH, "sam-large", Duration.ofMinutes(45), 4, 4, Duration.ofHours(8), false));

    private final StoryFactory factory;
    private final Ids ids;
    private final SplittableRandom random;
    private final SimulationWindow window;
    private final List<PodStory> stories = new ArrayList<>();
    private final List<SimVolcanoJob> jobs = new ArrayList<>();

    VolcanoJobs(long seed, SplittableRandom random, SimulationWindow window) {
        this.random = random;
        this.window = window;
        this.ids = new Ids(random.split());
        this.factory = new StoryFactory(seed, random.split(), window);
    }

    /** Makes the jobs and places their pods; after every other pod is placed. */
    void place(Scheduler scheduler) {
        for (Spec spec : SPECS) {
            jobs.add(job(spec, scheduler));
        }
    }

    List<PodStory> stories() {
        return List.copyOf(stories);
    }

    List<SimVolcanoJob> jobs() {
        return List.copyOf(jobs);
    }

    private SimVolcanoJob job(Spec spec, Scheduler scheduler) {
        String uid = ids.uid();
        Instant created = window.end().minus(spec.beforeEnd()).plusSeconds(random.nextInt(0, 1200));
        String podGroup = spec.name() + "-" + uid;
        List<Phase> phases = new ArrayList<>();
        phases.add(new Phase("Pending", null, created, 0));
        List<String> podUids = new ArrayList<>();
        int retries = 0;
        Instant askedAt = created.plusSeconds(RECREATE_SECONDS);
        // a gang larger than the queue's capability is never enqueued: no pods, Pending to the end
        while (spec.workers() * spec.cards() <= SimVolcanoJob.QUEUE_GPUS) {
            List<PodStory> attempt = attempt(spec, uid, podGroup, askedAt, scheduler);
            if (attempt == null) {
                break;
            }
            attempt.forEach(s -> podUids.add(s.uid));
            stories.addAll(attempt);
            phases.add(new Phase("Running", null, attempt.stream().map(PodStory::startedAt).max(Comparator.naturalOrder())
                    .orElseThrow(), retries));
            if (!spec.fails()) {
                Instant done = attempt.stream().map(PodStory::finishedAt).max(Comparator.naturalOrder()).orElseThrow();
                phases.add(new Phase("Completed", null, done.plusSeconds(RESTART_SECONDS), retries));
                break;
            }
            Instant failed = attempt.stream().map(PodStory::finishedAt).min(Comparator.naturalOrder()).orElseThrow();
            retries++;
            phases.add(new Phase("Restarting", "PodFailed", failed.plusSeconds(RESTART_SECONDS), retries));
            if (retries >= MAX_RETRY) {
                phases.add(new Phase("Failed", "PodFailed", failed.plusSeconds(RESTART_SECONDS + 1), retries));
                break;
            }
            phases.add(new Phase("Pending", null, failed.plusSeconds(REQUEUE_SECONDS), retries));
            askedAt = failed.plusSeconds(RECREATE_SECONDS);
        }
        List<Phase> seen = phases.stream().filter(p -> p.at().isBefore(window.end())).toList();
        return new SimVolcanoJob(uid, spec.namespace(), spec.name(), podGroup, QUEUE, Template.TRAINING.image,
                spec.workers(), spec.cards(), MAX_RETRY, created, seen, podUids);
    }

    /** One attempt's pods, placed; null when the gang does not fit before the end (then it stays Pending). */
    private List<PodStory> attempt(Spec spec, String uid, String podGroup, Instant askedAt, Scheduler scheduler) {
        Duration run = spec.run().plusSeconds(random.nextInt(0, 300));
        List<PodStory> pods = new ArrayList<>();
        for (int i = 0; i < spec.workers(); i++) {
            PodStory s = factory.story(Template.TRAINING, spec.namespace(), askedAt);
            s.name = spec.name() + "-" + TASK + "-" + i;
            s.owner = new PodOwner("Job", spec.name(), uid, null);
            s.project = spec.name();
            s.wholeCards = spec.cards();
            s.volcanoQueue = QUEUE;
            s.volcanoTask = TASK;
            s.volcanoPodGroup = podGroup;
            s.ending(PodStory.Plot.COMPLETE, run);
            if (spec.fails()) {
                // CUDA error in the training step; the restart deletes the pod
                s.exit(1, "Error").ttl(DELETE_SECONDS);
            } else {
                s.exit(0, "Completed");
            }
            if (!scheduler.place(s, askedAt, window.end(), 0)) {
                return null;
            }
            // Volcano makes the pods once the gang is enqueued, moments before they are bound
            Instant made = s.scheduledAt.minusSeconds(2);
            s.createdAt = made.isAfter(askedAt) ? made : askedAt;
            pods.add(s);
        }
        return pods;
    }
}
