package io.gpumeter.ledger.hours.domain;

import io.gpumeter.ledger.hami.domain.GrantFinding;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Quota reconciliation of one group: what its pods asked for, what the schedulers granted, and what was measured,
 * in card-equivalent hours, with the two ratios that show waiting (granted of asked) and waste (used of granted).
 *
 * @param allocatedOfRequested null when nothing was requested
 * @param usedOfAllocated      null when nothing was allocated
 * @param unverifiedGrants     the HAMi grants the group's pods named over the window that were not booked
 *                             ({@code HAMI_GRANT_UNVERIFIED}): allocated hours leave them out
 */
public record Reconciliation(String key, Map<String, String> group, BigDecimal requestedGpuHours,
                             BigDecimal allocatedGpuHours, BigDecimal usedGpuHours, BigDecimal idleGpuHours,
                             BigDecimal allocatedOfRequested, BigDecimal usedOfAllocated, String usageConfidence,
                             List<UnverifiedGrant> unverifiedGrants) {

    /** A HAMi grant not booked: which pod named which card, and the check it failed. */
    public record UnverifiedGrant(String cluster, String namespace, String pod, String gpuUuid, String check,
                                  String detail, Instant since, Instant until) {
        public static UnverifiedGrant of(GrantFinding f) {
            return new UnverifiedGrant(f.cluster(), f.namespace(), f.pod(), f.gpuUuid(), f.check().name(),
                    f.check().words() + ": " + f.detail(), f.since(), f.until());
        }
    }

    public static Reconciliation of(String key, Map<String, String> group, BigDecimal requested, GpuHours hours,
                                    List<UnverifiedGrant> unverified) {
        BigDecimal allocated = hours == null ? BigDecimal.ZERO : hours.allocatedGpuHours();
        BigDecimal used = hours == null ? BigDecimal.ZERO : hours.usedGpuHours();
        BigDecimal idle = hours == null ? BigDecimal.ZERO : hours.idleGpuHours();
        return new Reconciliation(key, group, requested, allocated, used, idle, ratio(allocated, requested),
                ratio(used, allocated), hours == null ? "NONE" : hours.usageConfidence(), List.copyOf(unverified));
    }

    private static BigDecimal ratio(BigDecimal part, BigDecimal whole) {
        return whole.signum() == 0 ? null : part.divide(whole, 6, RoundingMode.HALF_EVEN);
    }
}
