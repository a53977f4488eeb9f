package io.gpumeter.common.fact;

import java.util.List;

/**
 * What the ledger did with a batch: facts stored for the first time, facts it already had, the objects whose
 * facts are stored but whose books could not be derived (the rest of the batch is booked as usual), and the parts of
 * the objects it derived that it did not book as they came ({@code findings}, e.g. a HAMi grant it could not verify).
 */
public record IngestResult(int accepted, int duplicates, List<SkippedBook> skipped, List<BookFinding> findings) {

    public IngestResult {
        skipped = skipped == null ? List.of() : List.copyOf(skipped);
        findings = findings == null ? List.of() : List.copyOf(findings);
    }

    public IngestResult(int accepted, int duplicates, List<SkippedBook> skipped) {
        this(accepted, duplicates, skipped, List.of());
    }

    public IngestResult(int accepted, int duplicates) {
        this(accepted, duplicates, List.of(), List.of());
    }
}
