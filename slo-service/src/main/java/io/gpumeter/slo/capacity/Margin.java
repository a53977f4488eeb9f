package io.gpumeter.slo.capacity;

import java.math.BigDecimal;

/**
 * One safety margin as a share of capacity: what was measured (null when nothing could be), the configured floor,
 * the share applied (the larger of the two) and the facts that decided it.
 *
 * @param source {@code measured} or {@code floor}: which one the applied share is
 */
public record Margin(BigDecimal measured, BigDecimal floor, BigDecimal applied, String source, String basis) {

    public static final String MEASURED = "measured";
    public static final String FLOOR = "floor";

    /** The larger of a measured share (null: none) and the floor; a measured share is kept within [0, 1). */
    static Margin of(Double measured, double floor, String basis) {
        Double kept = measured == null ? null : Math.max(0, Math.min(measured, CommitmentModel.MAX_MARGIN));
        boolean fromMeasure = kept != null && kept >= floor;
        double applied = fromMeasure ? kept : floor;
        return new Margin(kept == null ? null : Shares.of(kept), Shares.of(floor), Shares.of(applied),
                fromMeasure ? MEASURED : FLOOR, basis);
    }

    double share() {
        return applied.doubleValue();
    }
}
