package io.gpumeter.ledger.repository;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** How many rows a statement stored for the first time, and the keys they belong to (one string per row). */
public record Inserted(int count, Set<String> keys) {

    public static final Inserted NONE = new Inserted(0, Set.of());

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
