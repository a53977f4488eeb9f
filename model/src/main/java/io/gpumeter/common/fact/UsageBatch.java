package io.gpumeter.common.fact;

import java.util.List;

/**
 * One idempotent delivery of usage from a collector to the ledger: single samples, per-minute partials, or both.
 */
public record UsageBatch(String cluster, List<UsageSample> samples, List<UsagePartial> partials) {

    public UsageBatch {
        samples = samples == null ? List.of() : List.copyOf(samples);
        partials = partials == null ? List.of() : List.copyOf(partials);
    }

    public UsageBatch(String cluster, List<UsageSample> samples) {
        this(cluster, samples, List.of());
    }

    /** How many values the batch carries, samples and the values of partials together. */
    public int values() {
        return samples.size() + partials.stream().mapToInt(UsagePartial::size).sum();
    }
}
