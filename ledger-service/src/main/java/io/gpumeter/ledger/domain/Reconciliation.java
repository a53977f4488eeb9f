package io.gpumeter.ledger.domain;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Map;

/**
 * Quota reconciliation of one group: what its pods asked for, what the schedulers granted, and what was measured,
 * in card-equivalent hours, with the two ratios that show waiting (granted of asked) and waste (used of granted).
 *
 * @param allocatedOfRequested null when nothing was requested
 * @param usedOfAllocated      null when nothing was allocated
 */
public record Reconciliation(String key, Map<String, String> group, BigDecimal requestedGpuHours,
                             BigDecimal allocatedGpuHours, BigDecimal usedGpuHours, BigDecimal idleGpuHours,
                             BigDecimal allocatedOfRequested, BigDecimal usedOfAllocated, String usageConfidence) {

    public static Reconciliation of(String key, Map<String, String> group, BigDecimal requested, GpuHours hours) {
        BigDecimal allocated = hours == null ? BigDecimal.ZERO : hours.allocatedGpuHours();
        BigDecimal used = hours == null ? BigDecimal.ZERO : hours.usedGpuHours();
        BigDecimal idle = hours == null ? BigDecimal.ZERO : hours.idleGpuHours();
        return new Reconciliation(key, group, requested, allocated, used, idle, ratio(allocated, requested),
                ratio(used, allocated), hours == null ? "NONE" : hours.usageConfidence());
    }

    private static BigDecimal ratio(BigDecimal part, BigDecimal whole) {
        return whole.signum() == 0 ? null : part.divide(whole, 6, RoundingMode.HALF_EVEN);
    }
}
