package io.gpumeter.ledger.triad.domain;

import java.time.Instant;

/** One minute of one series' triad fields: each field's sample sum and count, null where it was not measured. */
public record TriadMinute(Instant minute, Sum grEngine, Sum gpuUtil, Sum sm, Sum dram) {

    /** The sum and count of one field's samples. */
    public record Sum(double sum, int samples) {

        public static Sum of(Double sum, Integer samples) {
            return sum == null || samples == null || samples == 0 ? null : new Sum(sum, samples);
        }

        Sum plus(Sum other) {
            return other == null ? this : new Sum(sum + other.sum, samples + other.samples);
        }

        double mean() {
            return sum / samples;
        }
    }
}
