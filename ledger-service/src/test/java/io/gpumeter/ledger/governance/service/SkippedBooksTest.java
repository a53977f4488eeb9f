package io.gpumeter.ledger.governance.service;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class SkippedBooksTest {

    @Test
    void aDerivationThatThrowsIsCountedByBookAndTheNextStillRuns() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        SkippedBooks skipped = new SkippedBooks(registry);
        List<String> derived = new ArrayList<>();
        skipped.derive("pod", "pod p1", () -> {
            throw new IllegalStateException("a container without a name");
        });
        skipped.derive("pod", "pod p2", () -> derived.add("p2"));
        skipped.derive("node", "node n1", () -> {
            throw new NullPointerException();
        });
        assertEquals(List.of("p2"), derived);
        assertEquals(1.0, registry.counter("gpumeter_ledger_books_skipped", "book", "pod").count());
        assertEquals(1.0, registry.counter("gpumeter_ledger_books_skipped", "book", "node").count());
        assertEquals(0.0, registry.counter("gpumeter_ledger_books_skipped", "book", "workload").count());
    }
}
