package io.gpumeter.ledger.repository;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/**
 * Works through a large collection a slice at a time on the same connection: a bulk replay's tens of thousands of
 * facts are written and derived inside one transaction without holding every row's parameters, every re-read version
 * and every derived book in memory at once.
 */
public final class Chunks {

    /** Facts written by one INSERT. */
    public static final int ROWS = 5_000;
    /** Objects re-derived together: their stored versions are read back in one query. */
    public static final int OBJECTS = 1_000;
    /** Slices in flight at once on one connection in {@link #overlapped}: one with the database, one in the service. */
    static final int IN_FLIGHT = 2;
    /** Slices prepared beyond the one whose turn it is in {@link #overlapped(List, Function, Function, Executor)}. */
    static final int AHEAD = 2;

    private Chunks() {
    }

    public static <T> List<List<T>> of(Collection<T> items, int size) {
        List<List<T>> out = new ArrayList<>();
        List<T> current = new ArrayList<>(Math.min(size, items.size()));
        for (T item : items) {
            if (current.size() == size) {
                out.add(current);
                current = new ArrayList<>(size);
            }
            current.add(item);
        }
        if (!current.isEmpty()) {
            out.add(current);
        }
        return out;
    }

    /**
     * Runs {@code each} on every slice, independent slices two at a time on the same connection: the statements of
     * the next slice are already with the database while the service works on the answers of the one before, so
     * the two processes work at once instead of in turn. The slices must not read what another one writes. Results
     * are in slice order; a failure fails the whole, as it aborts the transaction anyway.
     */
    public static <T, R> Uni<List<R>> overlapped(List<List<T>> slices, Function<List<T>, Uni<R>> each) {
        return inTurn(slices.size(), i -> each.apply(slices.get(i)));
    }

    /**
     * As {@link #overlapped(List, Function)}, where what each slice's statement needs ({@code prepare}: its parameters,
     * JSON payloads above all) is built on {@code workers}, {@link #AHEAD} slices beyond the one whose turn it is,
     * and {@code each} then runs on the caller's Vert.x context. Building a bulk replay's pod versions on the
     * connection's event loop was over a quarter of that thread's work while the transaction was open, and the database
     * waited for it; the other core now builds them meanwhile. {@code prepare} must only read what it is given.
     */
    public static <T, P, R> Uni<List<R>> overlapped(List<List<T>> slices, Function<List<T>, P> prepare,
                                                    Function<P, Uni<R>> each, Executor workers) {
        Ahead<T, P> ahead = new Ahead<>(slices, prepare, workers);
        Context context = Vertx.currentContext();
        return inTurn(slices.size(), i -> {
            Uni<P> prepared = Uni.createFrom().completionStage(ahead.take(i))
                    .onFailure(CompletionException.class).transform(Throwable::getCause);
            Uni<P> onCaller = context == null ? prepared : prepared.emitOn(onContext(context));
            return onCaller.onItem().transformToUni(p -> each.apply(p));
        });
    }

    /**
     * A slice's own computation (a derivation from what its statements read) run on a worker thread, its answer handed
     * back on the caller's Vert.x context. Run on the connection's event loop, it kept the other slice of
     * {@link #overlapped} from sending its next statement, and the database waited; {@code work} must only read what
     * it is given.
     */
    public static <R> Uni<R> offLoop(Supplier<R> work) {
        return offLoop(work, Infrastructure.getDefaultWorkerPool());
    }

    static <R> Uni<R> offLoop(Supplier<R> work, Executor workers) {
        Context context = Vertx.currentContext();
        Uni<R> computed = Uni.createFrom().item(work).runSubscriptionOn(workers);
        return context == null ? computed : computed.emitOn(onContext(context));
    }

    /** Slices prepared ahead of their turn, each handed out once. */
    private static final class Ahead<T, P> {
        private final List<List<T>> slices;
        private final Function<List<T>, P> prepare;
        private final Executor workers;
        private final List<CompletableFuture<P>> started = new ArrayList<>();

        Ahead(List<List<T>> slices, Function<List<T>, P> prepare, Executor workers) {
            this.slices = slices;
            this.prepare = prepare;
            this.workers = workers;
        }

        synchronized CompletableFuture<P> take(int slice) {
            while (started.size() < Math.min(slices.size(), slice + 1 + AHEAD)) {
                List<T> next = slices.get(started.size());
                started.add(CompletableFuture.supplyAsync(() -> prepare.apply(next), workers));
            }
            return started.set(slice, null); // its parameters are not kept once handed out
        }
    }

    private static Executor onContext(Context context) {
        return command -> context.runOnContext(ignored -> command.run());
    }

    private static <R> Uni<List<R>> inTurn(int slices, IntFunction<Uni<R>> each) {
        if (slices == 1) {
            return each.apply(0).map(Collections::singletonList);
        }
        List<R> results = new ArrayList<>(Collections.nCopies(slices, null));
        return Multi.createFrom().range(0, slices).onItem()
                .transformToUni(i -> each.apply(i).invoke(r -> results.set(i, r)).replaceWith(i))
                .merge(IN_FLIGHT).collect().last().map(ignored -> results);
    }
}
