package io.gpumeter.ledger.repository;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * One field of every item as an array, for the array parameters of {@code unnest()} inserts. Plain loops: these run
 * once per column of every row a replay writes, where a stream pipeline cost several times the copy under the
 * services' C1 compiler.
 */
public final class Columns {

    private Columns() {
    }

    public static <T, V> V[] values(List<T> items, Function<T, V> field, IntFunction<V[]> array) {
        V[] out = array.apply(items.size());
        for (int i = 0; i < out.length; i++) {
            out[i] = field.apply(items.get(i));
        }
        return out;
    }

    public static <T> String[] strings(List<T> items, Function<T, String> field) {
        return values(items, field, String[]::new);
    }

    public static <T> OffsetDateTime[] times(List<T> items, Function<T, Instant> field) {
        OffsetDateTime[] out = new OffsetDateTime[items.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = offset(field.apply(items.get(i)));
        }
        return out;
    }

    /**
     * An instant as the client binds a {@code timestamptz}: what {@code instant.atOffset(UTC)} answers, without
     * building the offset's zone rules anew for every value as that does.
     */
    public static OffsetDateTime offset(Instant instant) {
        return instant == null ? null : OffsetDateTime.of(
                LocalDateTime.ofEpochSecond(instant.getEpochSecond(), instant.getNano(), ZoneOffset.UTC), ZoneOffset.UTC);
    }
}
