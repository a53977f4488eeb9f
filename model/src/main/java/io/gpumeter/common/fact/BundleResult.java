package io.gpumeter.common.fact;

/** What the ledger did with each half of a {@link FactBundle}. */
public record BundleResult(IngestResult facts, IngestResult governance) {
}
