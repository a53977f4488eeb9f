package io.gpumeter.common.fact;

import java.util.List;

/** One idempotent delivery of usage samples from a collector to the ledger. */
public record UsageBatch(String cluster, List<UsageSample> samples) {

    public UsageBatch {
        samples = samples == null ? List.of() : List.copyOf(samples);
    }
}
