package io.gpumeter.ledger.usage.domain;

import io.gpumeter.common.fact.UsageField;

import java.util.Optional;
import java.util.stream.Stream;

/**
 * A card's counter as DCGM keeps it since the driver loaded, and the per-minute field the ledger derives from it.
 *
 * @param toDerived  the derived unit per counter unit: joules per mJ, seconds per ns
 * @param aTimeShare whether the counter counts time: its increase over a stretch is then never more than the stretch
 */
public enum CounterField {
    ENERGY(UsageField.TOTAL_ENERGY_MJ, UsageField.ENERGY_J, 1e-3, false),
    POWER_VIOLATION(UsageField.POWER_VIOLATION_NS, UsageField.POWER_VIOLATION_S, 1e-9, true),
    THERMAL_VIOLATION(UsageField.THERMAL_VIOLATION_NS, UsageField.THERMAL_VIOLATION_S, 1e-9, true);

    private final UsageField raw;
    private final UsageField derived;
    private final double toDerived;
    private final boolean aTimeShare;

    CounterField(UsageField raw, UsageField derived, double toDerived, boolean aTimeShare) {
        this.raw = raw;
        this.derived = derived;
        this.toDerived = toDerived;
        this.aTimeShare = aTimeShare;
    }

    public UsageField raw() {
        return raw;
    }

    public UsageField derived() {
        return derived;
    }

    public double toDerived() {
        return toDerived;
    }

    public boolean aTimeShare() {
        return aTimeShare;
    }

    /** The counter a delivered field is, if it is one. */
    public static Optional<CounterField> ofRaw(String field) {
        return Stream.of(values()).filter(c -> c.raw.name().equals(field)).findFirst();
    }
}
