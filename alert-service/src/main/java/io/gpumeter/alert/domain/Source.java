package io.gpumeter.alert.domain;

import java.util.function.Function;

/**
 * What a data source gave an evaluation: its value, nothing because the source does not exist (yet), or nothing
 * because it failed this time. Rules treat the last two differently: an absent source never fires, a failed one
 * holds its alerts as they were.
 */
public sealed interface Source<T> {

    /** The source answered. */
    record Available<T>(T value) implements Source<T> {
    }

    /** The source does not exist here (its endpoint answers 404, or it is not configured). */
    record Absent<T>(String reason) implements Source<T> {
    }

    /** The source exists but did not answer usably this time (timeout, 5xx, garbage). */
    record Failed<T>(String reason) implements Source<T> {
    }

    static <T> Source<T> available(T value) {
        return new Available<>(value);
    }

    static <T> Source<T> absent(String reason) {
        return new Absent<>(reason);
    }

    static <T> Source<T> failed(String reason) {
        return new Failed<>(reason);
    }

    /** The value, or the fallback when the source gave none. */
    default T orElse(T fallback) {
        return this instanceof Available<T> a ? a.value() : fallback;
    }

    default <R> Source<R> map(Function<T, R> mapping) {
        if (this instanceof Available<T> a) {
            return new Available<>(mapping.apply(a.value()));
        }
        return this instanceof Absent<T> absent ? new Absent<>(absent.reason()) : new Failed<>(((Failed<T>) this).reason());
    }

    default String reason() {
        if (this instanceof Absent<T> a) {
            return a.reason();
        }
        return this instanceof Failed<T> f ? f.reason() : null;
    }
}
