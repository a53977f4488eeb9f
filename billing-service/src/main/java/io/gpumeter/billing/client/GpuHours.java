package io.gpumeter.billing.client;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.math.BigDecimal;
import java.util.Map;

/**
 * One ledger aggregate: allocated and measured (used) normalized GPU-hours of one combination of the requested
 * dimensions, the energy its units drew ({@code energyKWh}, their shares of their cards' energy) and, grouped by the
 * cards' own dimensions without a tenant, what its cards drew while no unit held them ({@code idleEnergyKWh}, null
 * otherwise).
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record GpuHours(String key, Map<String, String> group, BigDecimal allocatedGpuHours,
                       BigDecimal usedGpuHours, BigDecimal energyKWh, BigDecimal idleEnergyKWh) {

    /** The value of one dimension, or null when the ledger does not know it. */
    public String dimension(String name) {
        return group == null ? null : group.get(name);
    }
}
