package io.gpumeter.launcher.simulator;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static io.gpumeter.launcher.simulator.PodStory.Plot;
import static io.gpumeter.launcher.simulator.Tenancy.ACME_INFERENCE;
import static io.gpumeter.launcher.simulator.Tenancy.ACME_TRAINING;
import static io.gpumeter.launcher.simulator.Tenancy.GLOBEX_LLM;
import static io.gpumeter.launcher.simulator.Tenancy.INITECH_BATCH;
import static io.gpumeter.launcher.simulator.Tenancy.UMBRELLA_RESEARCH;

/**
 * Draws the pods of a history: the {@link Landmarks} every history has, then random arrivals of the six templates,
 * about one every {@link #MEAN_ARRIVAL}, each with a run length and an ending drawn by template.
 */
final class Workload {

    static final Duration MEAN_ARRIVAL = Duration.ofMinutes(80);

    private final SplittableRandom random;
    private final StoryFactory factory;
    private final SimulationWindow window;
    private final Instant relabelAt;

    Workload(long seed, SplittableRandom random, SimulationWindow window, Instant relabelAt) {
        this.random = random;
        this.factory = new StoryFactory(seed, random, window);
        this.window = window;
        this.relabelAt = relabelAt;
    }

    List<PodStory> stories() {
        List<PodStory> stories = new ArrayList<>(Landmarks.stories(factory, window, relabelAt));
        Instant at = window.start().plus(Duration.ofMinutes(10));
        Instant last = window.end().minus(Duration.ofMinutes(5));
        while (true) {
            at = at.plusSeconds(Math.max(1, Math.round(-Math.log(1 - random.nextDouble()) * MEAN_ARRIVAL.toSeconds())));
            if (!at.isBefore(last)) {
                return stories;
            }
            stories.add(randomStory(at));
        }
    }

    private PodStory randomStory(Instant at) {
        Template template = pick(Template.values(), new int[] {18, 14, 24, 16, 10, 18});
        PodStory s = factory.story(template, namespaceFor(template), at);
        switch (template) {
            case INFERENCE -> factory.hami(s, pick(new long[] {10000, 16000, 20000, 24000, 40000}),
                    random.nextInt(5) == 0 ? 0 : pick(new int[] {20, 25, 30, 50}));
            case NOTEBOOK -> factory.hami(s, pick(new long[] {8000, 10000, 16000}),
                    random.nextInt(5) == 0 ? pick(new int[] {10, 20}) : 0);
            case EVAL -> factory.hami(s, pick(new long[] {4000, 8000}), pick(new int[] {0, 10, 20}));
            case TRAINING -> s.wholeCards = pick(new int[] {1, 2, 4, 8}, new int[] {35, 25, 25, 15});
            case MIG_SERVING -> s.migProfile = pick(MigProfile.values(), new int[] {60, 30, 10});
            case MIG_BATCH -> s.migProfile = pick(MigProfile.values(), new int[] {40, 30, 30});
        }
        return plot(s);
    }

    /** Which tenants run which kind of work, and how much of it. */
    private String namespaceFor(Template template) {
        return switch (template) {
            case INFERENCE -> pick(new String[] {ACME_INFERENCE, GLOBEX_LLM, INITECH_BATCH}, new int[] {50, 35, 15});
            case NOTEBOOK -> pick(new String[] {UMBRELLA_RESEARCH, ACME_TRAINING}, new int[] {50, 50});
            case EVAL -> pick(new String[] {ACME_TRAINING, GLOBEX_LLM, INITECH_BATCH}, new int[] {1, 1, 1});
            case TRAINING -> pick(new String[] {ACME_TRAINING, INITECH_BATCH, UMBRELLA_RESEARCH}, new int[] {40, 30, 30});
            case MIG_SERVING -> pick(new String[] {GLOBEX_LLM, ACME_INFERENCE}, new int[] {60, 40});
            case MIG_BATCH -> pick(new String[] {INITECH_BATCH, ACME_TRAINING}, new int[] {50, 50});
        };
    }

    /** Draws how long the pod runs and how it ends, by template. */
    private PodStory plot(PodStory s) {
        switch (s.template) {
            case INFERENCE -> serving(s, logUniform(Duration.ofHours(6), Duration.ofDays(5)), 65, 15);
            case MIG_SERVING -> serving(s, logUniform(Duration.ofHours(3), Duration.ofDays(3)), 70, 10);
            case NOTEBOOK -> {
                Duration run = logUniform(Duration.ofMinutes(30), Duration.ofHours(12));
                int roll = random.nextInt(100);
                if (roll < 55) {
                    gracefulStop(s.ending(Plot.GRACEFUL_DELETE, run));
                } else if (roll < 85) {
                    s.ending(Plot.FORCED_DELETE, run);
                } else {
                    s.ending(Plot.COMPLETE, run).exit(0, "Completed")
                            .ttl(random.nextBoolean() ? -1 : random.nextLong(3600, 86400));
                }
            }
            case TRAINING -> {
                Duration run = logUniform(Duration.ofMinutes(10), Duration.ofHours(36));
                if (random.nextInt(100) < 10) {
                    gracefulStop(s.ending(Plot.GRACEFUL_DELETE, run));
                } else {
                    jobEnd(s.ending(Plot.COMPLETE, run), 85, 10);
                }
            }
            case EVAL -> jobEnd(s.ending(Plot.COMPLETE, logUniform(Duration.ofSeconds(15), Duration.ofMinutes(4))),
                    95, 5);
            case MIG_BATCH -> jobEnd(s.ending(Plot.COMPLETE, logUniform(Duration.ofMinutes(5), Duration.ofHours(8))),
                    90, 10);
        }
        return s;
    }

    private void serving(PodStory s, Duration run, int gracefulPercent, int forcedPercent) {
        int roll = random.nextInt(100);
        if (roll < gracefulPercent) {
            gracefulStop(s.ending(Plot.GRACEFUL_DELETE, run));
        } else if (roll < gracefulPercent + forcedPercent) {
            s.ending(Plot.FORCED_DELETE, run);
        } else {
            s.ending(Plot.RUN_ON, Duration.ZERO);
        }
    }

    /** Most containers stop within a few seconds of SIGTERM; some ignore it and are killed at the deadline. */
    private void gracefulStop(PodStory s) {
        if (random.nextInt(100) < 80) {
            boolean clean = random.nextInt(100) < 70;
            s.stop(random.nextInt(1, 13), clean ? 0 : 143, clean ? "Completed" : "Error");
        } else {
            s.stop(PodStory.GRACE_SECONDS, 137, "Error");
        }
    }

    private void jobEnd(PodStory s, int succeededPercent, int errorPercent) {
        int roll = random.nextInt(100);
        if (roll < succeededPercent) {
            s.exit(0, "Completed");
        } else if (roll < succeededPercent + errorPercent) {
            s.exit(1, "Error");
        } else {
            s.exit(137, "OOMKilled");
        }
        s.ttl(random.nextInt(100) < 70 ? random.nextLong(60, 6 * 3600) : -1);
    }

    private Duration logUniform(Duration min, Duration max) {
        double lo = Math.log(min.toSeconds());
        double hi = Math.log(max.toSeconds());
        return Duration.ofSeconds(Math.round(Math.exp(lo + random.nextDouble() * (hi - lo))));
    }

    private <T> T pick(T[] values, int[] weights) {
        int total = 0;
        for (int w : weights) {
            total += w;
        }
        int roll = random.nextInt(total);
        for (int i = 0; i < values.length; i++) {
            roll -= weights[i];
            if (roll < 0) {
                return values[i];
            }
        }
        throw new IllegalStateException("weights do not cover the roll");
    }

    private int pick(int[] values, int[] weights) {
        Integer[] boxed = new Integer[values.length];
        for (int i = 0; i < values.length; i++) {
            boxed[i] = values[i];
        }
        return pick(boxed, weights);
    }

    private int pick(int[] values) {
        return values[random.nextInt(values.length)];
    }

    private long pick(long[] values) {
        return values[random.nextInt(values.length)];
    }
}
