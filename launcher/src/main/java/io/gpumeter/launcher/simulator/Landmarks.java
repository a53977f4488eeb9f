package io.gpumeter.launcher.simulator;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static io.gpumeter.launcher.simulator.PodStory.Plot;
import static io.gpumeter.launcher.simulator.Tenancy.ACME_INFERENCE;
import static io.gpumeter.launcher.simulator.Tenancy.ACME_TRAINING;
import static io.gpumeter.launcher.simulator.Tenancy.GLOBEX_LLM;
import static io.gpumeter.launcher.simulator.Tenancy.INITECH_BATCH;
import static io.gpumeter.launcher.simulator.Tenancy.UMBRELLA_RESEARCH;

/**
 * The stories every history has, whatever the seed, so that consumers and tests can count on them: a month
 * boundary crossed (vGPU, whole cards and MIG), a sub-minute job, both kinds of delete, work across the tenant
 * relabel, and pods still running at the end.
 */
final class Landmarks {

    private Landmarks() {
    }

    static List<PodStory> stories(StoryFactory factory, SimulationWindow window, Instant relabelAt) {
        Instant start = window.start();
        Instant boundary = window.monthBoundary();
        List<PodStory> fixed = new ArrayList<>();
        // a model server that runs from the first hour to the end, across the month boundary
        PodStory server = factory.story(Template.INFERENCE, ACME_INFERENCE, start.plus(Duration.ofMinutes(15)));
        fixed.add(factory.hami(server, 20000, 30).ending(Plot.RUN_ON, Duration.ZERO));
        // a two-card training job that crosses the month boundary and completes
        PodStory crossing = factory.story(Template.TRAINING, INITECH_BATCH, boundary.minus(Duration.ofHours(20)));
        crossing.wholeCards = 2;
        fixed.add(crossing.ending(Plot.COMPLETE, Duration.ofHours(40)).exit(0, "Completed").ttl(600));
        // a model server in the relabelled namespace, running across the relabel, deleted gracefully
        PodStory relabelled = factory.story(Template.INFERENCE, INITECH_BATCH, relabelAt.minus(Duration.ofHours(12)));
        fixed.add(factory.hami(relabelled, 16000, 25).ending(Plot.GRACEFUL_DELETE, Duration.ofHours(24))
                .stop(8, 0, "Completed"));
        // a job of twenty seconds
        PodStory quick = factory.story(Template.EVAL, ACME_TRAINING, start.plus(Duration.ofHours(2)));
        fixed.add(factory.hami(quick, 8000, 10).ending(Plot.COMPLETE, Duration.ofSeconds(20)).exit(0, "Completed")
                .ttl(300));
        // a notebook deleted with grace period 0
        PodStory forced = factory.story(Template.NOTEBOOK, UMBRELLA_RESEARCH, start.plus(Duration.ofDays(1)));
        factory.hami(forced, 10000, 0);
        forced.coresDeclared = false;
        fixed.add(forced.ending(Plot.FORCED_DELETE, Duration.ofHours(3)));
        // a MIG server across the month boundary
        PodStory mig = factory.story(Template.MIG_SERVING, GLOBEX_LLM, boundary.minus(Duration.ofDays(2)));
        mig.migProfile = MigProfile.MIG_1G_10GB;
        fixed.add(mig.ending(Plot.GRACEFUL_DELETE, Duration.ofDays(3)).stop(3, 0, "Completed"));
        // work still running when the history ends: a MIG batch and a training job
        Instant end = window.end();
        PodStory migBatch = factory.story(Template.MIG_BATCH, ACME_TRAINING, end.minus(Duration.ofHours(3)));
        migBatch.migProfile = MigProfile.MIG_2G_20GB;
        fixed.add(migBatch.ending(Plot.COMPLETE, Duration.ofHours(10)).exit(0, "Completed"));
        PodStory training = factory.story(Template.TRAINING, UMBRELLA_RESEARCH, end.minus(Duration.ofHours(6)));
        training.wholeCards = 1;
        fixed.add(training.ending(Plot.COMPLETE, Duration.ofDays(2)).exit(0, "Completed"));
        return fixed;
    }
}
