package io.gpumeter.ledger.hours.domain;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;

/**
 * Where a unit's used hours came from, in the order of trust: a series of the unit itself, then a series of the
 * pod relative to the whole card, then the card's activity (alone on it, or apportioned).
 */
public enum UsageSource {
    /** The MIG instance's own series, relative to the unit. */
    MIG_INSTANCE,
    /** HAMi's per-container core utilization, relative to the whole card. */
    HAMI_CONTAINER,
    /** nvidia-smi's per-process SM time of the pod's processes, relative to the whole card. */
    PROCESS,
    /** The card's activity, the unit being the card's only occupant. */
    DEVICE_EXCLUSIVE,
    /** The card's activity left by the pods measured per process, apportioned among the others by fraction. */
    DEVICE_BY_PROCESS,
    /** The card's activity left by the pods measured per container, apportioned among the others by fraction. */
    DEVICE_BY_CONTAINER,
    /** The card's activity apportioned among all its occupants by allocated fraction. */
    DEVICE_BY_ALLOCATION;

    private static final Set<UsageSource> UNSHARED = EnumSet.of(MIG_INSTANCE, HAMI_CONTAINER, DEVICE_EXCLUSIVE);

    /** Whether the figure is measured on the unit alone rather than apportioned or read from process SM time. */
    public boolean unshared() {
        return UNSHARED.contains(this);
    }

    /** The sources of a comma-separated list; an empty set for null or blank. */
    public static Set<UsageSource> parseAll(String list) {
        Set<UsageSource> out = EnumSet.noneOf(UsageSource.class);
        if (list != null && !list.isBlank()) {
            Arrays.stream(list.split(",")).map(String::trim).map(UsageSource::valueOf).forEach(out::add);
        }
        return out;
    }
}
