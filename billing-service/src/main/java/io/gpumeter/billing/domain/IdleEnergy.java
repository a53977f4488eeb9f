package io.gpumeter.billing.domain;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * The energy one cluster's cards drew during one rate-card stretch of a period while no unit held them: booked to
 * no tenant, reported on the unallocated line beside the capacity no grant used.
 *
 * @param stretch the stretch's index in its period's list of stretches
 * @param cluster the cluster, or null when the ledger does not know it
 */
public record IdleEnergy(int stretch, String cluster, BigDecimal kWh) {

    public IdleEnergy {
        Objects.requireNonNull(kWh, "kWh");
    }
}
