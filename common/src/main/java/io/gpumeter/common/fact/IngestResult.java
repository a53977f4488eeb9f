package io.gpumeter.common.fact;

/** What the ledger did with a batch: facts stored for the first time, and facts it already had. */
public record IngestResult(int accepted, int duplicates) {
}
