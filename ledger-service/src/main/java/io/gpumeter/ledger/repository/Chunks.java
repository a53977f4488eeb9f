package io.gpumeter.ledger.repository;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Function;

/**
 * Works through a large collection a slice at a time, one slice after the other on the same connection: a bulk
 * replay's tens of thousands of facts are written and derived inside one transaction without holding every row's
 * parameters, every re-read version and every derived book in memory at once.
 */
public final class Chunks {

    /** Facts written by one INSERT. */
    public static final int ROWS = 5_000;
    /** Objects re-derived together: their stored versions are read back in one query. */
    public static final int OBJECTS = 1_000;

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

    /** Runs {@code each} on every slice in order, the next one after the previous has finished. */
    public static <T, R> Uni<List<R>> inOrder(List<List<T>> slices, Function<List<T>, Uni<R>> each) {
        if (slices.size() == 1) {
            return each.apply(slices.get(0)).map(List::of);
        }
        return Multi.createFrom().iterable(slices).onItem()
                .<R>transformToUniAndConcatenate(slice -> each.apply(slice)).collect().asList();
    }
}
