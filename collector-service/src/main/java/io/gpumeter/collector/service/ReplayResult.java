package io.gpumeter.collector.service;

import io.gpumeter.common.fact.BookFinding;
import io.gpumeter.common.fact.IngestResult;
import io.gpumeter.common.fact.SkippedBook;

import java.util.List;
import java.util.Map;

/**
 * What a replay request did: metering facts stored for the first time, facts the ledger already had, events
 * skipped, the same counts for the governance facts (queues, admission, events, pod states), and the objects whose
 * facts are stored but whose books the ledger could not derive ({@code booksSkipped}, with the reason), and the
 * parts of objects the ledger did not book as they came ({@code bookFindings}, e.g. a HAMi grant it could not verify).
 */
public record ReplayResult(String cluster, int events, int accepted, int duplicates, int skipped,
                           Map<String, Integer> skippedReasons, IngestResult governance, List<SkippedBook> booksSkipped,
                           List<BookFinding> bookFindings) {
}
