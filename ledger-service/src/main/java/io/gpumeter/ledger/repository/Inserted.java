package io.gpumeter.ledger.repository;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/** How many rows a statement stored for the first time, and the keys they belong to (one string per row). */
public record Inserted(int count, Set<String> keys) {

    public static final Inserted NONE = new Inserted(0, Set.of());

    /** Rows known to be new before they were inserted, keyed by {@code key}. */
    public static <T> Inserted of(List<T> rows, Function<T, String> key) {
        Set<String> keys = new LinkedHashSet<>();
        rows.forEach(r -> keys.add(key.apply(r)));
        return new Inserted(rows.size(), keys);
    }

    /** The rows several statements stored, as one. */
    public static Inserted sum(List<Inserted> parts) {
        if (parts.size() == 1) {
            return parts.get(0);
        }
        Set<String> keys = new LinkedHashSet<>();
        parts.forEach(p -> keys.addAll(p.keys()));
        return new Inserted(parts.stream().mapToInt(Inserted::count).sum(), keys);
    }
}
