package io.gpumeter.billing.client;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.math.BigDecimal;
import java.util.Map;

/**
 * One ledger aggregate: allocated and measured (used) normalized GPU-hours of one combination of the requested
 * dimensions.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record GpuHours(String key, Map<String, String> group, BigDecimal allocatedGpuHours,
                       BigDecimal usedGpuHours) {

    /** The value of one dimension, or null when the ledger does not know it. */
    public String dimension(String name) {
        return group == null ? null : group.get(name);
    }
}
