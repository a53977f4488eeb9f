package io.gpumeter.alert.domain;

import java.time.Duration;

/** Exponential back-off between delivery attempts, doubling from {@code initial} up to {@code max}. */
public final class Backoff {

    private Backoff() {
    }

    /** The pause after the {@code failures}-th failed attempt (1 for the first). */
    public static Duration after(int failures, Duration initial, Duration max) {
        if (failures <= 1) {
            return initial.compareTo(max) > 0 ? max : initial;
        }
        int doublings = Math.min(failures - 1, 30);
        Duration next = initial.multipliedBy(1L << doublings);
        return next.compareTo(max) > 0 || next.isNegative() ? max : next;
    }
}
