package io.gpumeter.common.fact;

import java.util.List;

/**
 * What the ledger did with a batch: facts stored for the first time, facts it already had, and the objects whose
 * facts are stored but whose books could not be derived (the rest of the batch is booked as usual).
 */
public record IngestResult(int accepted, int duplicates, List<SkippedBook> skipped) {

    public IngestResult {
        skipped = skipped == null ? List.of() : List.copyOf(skipped);
    }

    public IngestResult(int accepted, int duplicates) {
        this(accepted, duplicates, List.of());
    }
}
