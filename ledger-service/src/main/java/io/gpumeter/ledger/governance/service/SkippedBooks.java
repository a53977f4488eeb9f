package io.gpumeter.ledger.governance.service;

import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

/**
 * Derives one object's books and, when its stored facts cannot be derived (a shape no rule expected), logs it and
 * counts it on {@code gpumeter_ledger_books_skipped_total{book}} instead of failing the batch that brought them.
 */
@ApplicationScoped
public class SkippedBooks {

    private static final Logger LOG = Logger.getLogger(SkippedBooks.class);

    private final MeterRegistry registry;

    public SkippedBooks(MeterRegistry registry) {
        this.registry = registry;
    }

    /**
     * @param book the kind of book, a small fixed set (workload, pod-group, pod, card, gauge, node, node-oom)
     * @param what the object, for the log only
     */
    public void derive(String book, String what, Runnable derivation) {
        try {
            derivation.run();
        } catch (RuntimeException e) {
            registry.counter("gpumeter_ledger_books_skipped", "book", book).increment();
            LOG.warnf("books of %s not derived: %s", what, e);
        }
    }
}
