package io.gpumeter.collector.host;

import java.util.ArrayList;
import java.util.List;

/**
 * What a body of host series yielded: the readings of GPU pods' cgroups or of a GPU node, and counts of what was
 * left out.
 *
 * @param readings the readings kept
 * @param unknown  samples of metrics not read (memory, blkio, load, …)
 * @param other    samples of series that are not a GPU pod's or a GPU node's (system cgroups, other pods' containers,
 *                 a sandbox's own CPU, per-CPU series, virtual network devices)
 */
public record HostMapping(List<HostReading> readings, int unknown, int other) {

    /** Gathers a mapping sample by sample. */
    static final class Builder {
        private final List<HostReading> readings = new ArrayList<>();
        private int unknown;
        private int other;

        void add(HostReading reading) {
            readings.add(reading);
        }

        void unknown() {
            unknown++;
        }

        void other() {
            other++;
        }

        HostMapping build() {
            return new HostMapping(readings, unknown, other);
        }
    }
}
