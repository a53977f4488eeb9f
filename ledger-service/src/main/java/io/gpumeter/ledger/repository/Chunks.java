package io.gpumeter.ledger.repository;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;

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
        if (slices.size() == 1) {
            return each.apply(slices.get(0)).map(Collections::singletonList);
        }
        List<R> results = new ArrayList<>(Collections.nCopies(slices.size(), null));
        return Multi.createFrom().range(0, slices.size()).onItem()
                .transformToUni(i -> each.apply(slices.get(i)).invoke(r -> results.set(i, r)).replaceWith(i))
                .merge(IN_FLIGHT).collect().last().map(ignored -> results);
    }
}
