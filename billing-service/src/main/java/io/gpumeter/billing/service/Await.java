package io.gpumeter.billing.service;

import io.quarkus.vertx.VertxContextSupport;
import io.smallrye.mutiny.Uni;

import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * The one way billing blocks a worker thread on a reactive read or write: the work runs on a Vert.x context
 * (Hibernate Reactive needs one; the SQL client is content with it) and the wait is bounded, so a database that
 * stops answering fails the request instead of holding the thread.
 */
final class Await {

    /** The longest a worker thread waits for the billing database. */
    static final Duration LIMIT = Duration.ofSeconds(30);

    private Await() {
    }

    /**
     * The item of the {@link Uni} that {@code work} returns, at most {@link #LIMIT} after subscribing.
     *
     * @throws RuntimeException the work's own failure, or {@link io.smallrye.mutiny.TimeoutException} when it
     *                          takes longer
     */
    static <T> T result(Supplier<Uni<T>> work) {
        try {
            return VertxContextSupport.subscribeAndAwait(() -> work.get().ifNoItem().after(LIMIT).fail());
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new CompletionException(e);
        }
    }
}
