package io.gpumeter.ledger.governance.service;

import io.gpumeter.common.fact.SkippedBook;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.util.Optional;

/**
 * Derives one object's books and, when its stored facts cannot be derived (a shape no rule expected), logs it once
 * with the object's key and counts it on {@code gpumeter_ledger_books_skipped_total{book}} instead of failing the
 * batch that brought them: one object never holds back the others.
 */
@ApplicationScoped
public class SkippedBooks {

    private static final Logger LOG = Logger.getLogger(SkippedBooks.class);

    private final MeterRegistry registry;

    public SkippedBooks(MeterRegistry registry) {
        this.registry = registry;
    }

    /** A rule of this product refused the facts, so its words describe them; a library's words would not. */
    private static boolean ours(RuntimeException e) {
        StackTraceElement[] trace = e.getStackTrace();
        return trace.length > 0 && trace[0].getClassName().startsWith("io.gpumeter.");
    }

    /**
     * @param book the kind of book, a small fixed set (workload, pod-group, pod, allocation, card, gauge, node, node-oom)
     * @param what the object, for the log and the answer
     * @return the skipped object when its derivation failed, else empty
     */
    public Optional<SkippedBook> derive(String book, String what, Runnable derivation) {
        try {
            derivation.run();
            return Optional.empty();
        } catch (RuntimeException e) {
            registry.counter("gpumeter_ledger_books_skipped", "book", book).increment();
            if (e instanceof IllegalArgumentException && ours(e)) {
                // a rule refused what the facts say: the rule's own words are the reason
                LOG.warnf("books of %s not derived: %s", what, e.getMessage());
                return Optional.of(new SkippedBook(book, what, e.getMessage()));
            }
            LOG.errorf(e, "books of %s not derived: a derivation failed", what);
            return Optional.of(new SkippedBook(book, what,
                    "its books could not be derived (an internal error, logged by the ledger with this key)"));
        }
    }
}
