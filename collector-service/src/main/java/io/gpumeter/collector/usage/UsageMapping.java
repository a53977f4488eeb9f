package io.gpumeter.collector.usage;

import io.gpumeter.common.fact.DriverSightingFact;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a scrape yielded.
 *
 * @param unknownSamples samples of metrics this mapper does not read (temperatures, PCIe, …), skipped
 * @param invalidSamples samples of a known metric that cannot be used (no GPU UUID, value out of range, NaN), skipped
 * @param problems       why the first invalid samples were skipped, and why a driver version was not kept, at most
 *                       {@value #MAX_PROBLEMS}
 * @param driverSightings the driver versions the body named, once per node, card and version (the first time each
 *                        was seen in it), however many samples carried it
 */
public record UsageMapping(List<UsageObservation> observations, int unknownSamples, int invalidSamples,
                           List<String> problems, List<DriverSightingFact> driverSightings) {

    public static final int MAX_PROBLEMS = 20;

    public UsageMapping {
        observations = List.copyOf(observations);
        problems = List.copyOf(problems);
        driverSightings = driverSightings == null ? List.of() : List.copyOf(driverSightings);
    }

    /** A mapping that names no driver version. */
    public UsageMapping(List<UsageObservation> observations, int unknownSamples, int invalidSamples,
                        List<String> problems) {
        this(observations, unknownSamples, invalidSamples, problems, List.of());
    }

    /** Gathers a mapping sample by sample. */
    static final class Builder {
        private final List<UsageObservation> observations = new ArrayList<>();
        private final List<String> problems = new ArrayList<>();
        private final Map<List<String>, DriverSightingFact> sightings = new LinkedHashMap<>();
        private final Set<List<String>> refused = new HashSet<>();
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

        /** A remark on a reading that was kept (in part): listed with the problems, counted as nothing skipped. */
        void note(String problem) {
            if (problems.size() < MAX_PROBLEMS) {
                problems.add(problem);
            }
        }

        /** An unusable reading of something other than a Prometheus sample: a process row, say. */
        void invalid(String what, String reason) {
            invalid++;
            if (problems.size() < MAX_PROBLEMS) {
                problems.add(what + ": " + reason);
            }
        }

        /**
         * A card's driver version as the body names it, kept once per node, card and version; a version that is not
         * one is listed in the problems instead (once per card and value), and nothing else of its sample is lost.
         *
         * @param where what named it, for the problem: a column or label and the card
         */
        void driverVersion(String node, String gpuUuid, String version, String source, Instant at, String where) {
            if (node == null || node.isBlank() || gpuUuid == null || gpuUuid.isBlank() || version == null
                    || version.isBlank()) {
                return;
            }
            List<String> key = List.of(node, gpuUuid, version);
            if (sightings.containsKey(key) || refused.contains(key)) {
                return;
            }
            String problem = DriverVersions.problem(version);
            if (problem == null) {
                sightings.put(key, new DriverSightingFact(node, gpuUuid, version, source, at));
            } else {
                refused.add(key);
                if (problems.size() < MAX_PROBLEMS) {
                    problems.add(where + ": " + problem + ", not kept as the card's driver version");
                }
            }
        }

        UsageMapping build() {
            return new UsageMapping(observations, unknown, invalid, problems, List.copyOf(sightings.values()));
        }
    }
}
