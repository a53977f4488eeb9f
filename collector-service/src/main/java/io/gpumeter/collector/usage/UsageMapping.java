package io.gpumeter.collector.usage;

import java.util.ArrayList;
import java.util.List;

/**
 * What a scrape yielded.
 *
 * @param unknownSamples samples of metrics this mapper does not read (temperatures, PCIe, …), skipped
 * @param invalidSamples samples of a known metric that cannot be used (no GPU UUID, value out of range, NaN), skipped
 * @param problems       why the first invalid samples were skipped, at most {@value #MAX_PROBLEMS}
 */
public record UsageMapping(List<UsageObservation> observations, int unknownSamples, int invalidSamples,
                           List<String> problems) {

    public static final int MAX_PROBLEMS = 20;

    public UsageMapping {
        observations = List.copyOf(observations);
        problems = List.copyOf(problems);
    }

    /** Gathers a mapping sample by sample. */
    static final class Builder {
        private final List<UsageObservation> observations = new ArrayList<>();
        private final List<String> problems = new ArrayList<>();
        private int unknown;
        private int invalid;

        void add(UsageObservation observation) {
            observations.add(observation);
        }

        void unknown() {
            unknown++;
        }

        void invalid(Sample sample, String reason) {
            invalid(sample.name() + sample.labels(), reason);
        }

        /** An unusable reading of something other than a Prometheus sample: a process row, say. */
        void invalid(String what, String reason) {
            invalid++;
            if (problems.size() < MAX_PROBLEMS) {
                problems.add(what + ": " + reason);
            }
        }

        UsageMapping build() {
            return new UsageMapping(observations, unknown, invalid, problems);
        }
    }
}
