package io.gpumeter.ledger.hours.domain;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Normalized GPU-hours of one group over a window: allocated (what is invoiced) beside used (measured, showback)
 * and idle (allocated − used), and the energy the group's units drew.
 *
 * @param key              the group's values joined with '/', in the order asked for
 * @param group            each dimension's value
 * @param usageCoverage    share of the allocated hours during which the card was measured (0..1)
 * @param activityMetric   the activity field(s) used: SM_ACTIVE where present, else GR_ENGINE_ACTIVE, else GPU_UTIL
 *                         (VGPU_CORE_UTIL for HAMi containers; GPU_UTIL also names per-process SM time)
 * @param usageConfidence  HIGH: measured on the unit alone (its MIG instance, its HAMi container, a card with one
 *                         occupant); MEDIUM: a shared card's activity apportioned, or per-process SM time; LOW: only
 *                         the card's coarse GPU_UTIL; NONE: never measured
 * @param usageSource      the {@link UsageSource}s the figure came from, comma-separated in order of trust
 * @param energyKWh        the units' shares of their cards' energy: each minute's energy of a card split among the
 *                         units on it by allocated fraction times the seconds held, capped at the whole card
 * @param energyCoverage   share of the allocated hours during which the card's energy was measured (0..1)
 * @param energySource     ENERGY_COUNTER (DCGM's total-energy counter), POWER_INTEGRAL (power draw over time), or both
 * @param idleEnergyKWh    the energy of the group's cards that no unit held; only where every dimension is the
 *                         card's (cluster, node, model, a time bucket) and no tenant is asked for, else null
 */
public record GpuHours(String key, Map<String, String> group, BigDecimal allocatedGpuHours, BigDecimal usedGpuHours,
                       BigDecimal idleGpuHours, BigDecimal usageCoverage, String activityMetric, String usageConfidence,
                       String usageSource, BigDecimal energyKWh, BigDecimal energyCoverage, String energySource,
                       BigDecimal idleEnergyKWh) {

    /** Joules in a kilowatt-hour. */
    private static final BigDecimal JOULES_PER_KWH = BigDecimal.valueOf(3_600_000);

    public static GpuHours of(String key, Map<String, String> group, BigDecimal allocated, UsedHours used) {
        BigDecimal energy = used == null ? BigDecimal.ZERO : kWh(used.energyJoules());
        BigDecimal energyCoverage = used == null ? BigDecimal.ZERO : share(used.energyCoveredGpuHours(), allocated);
        String energySource = used == null ? null : used.energySources();
        if (used == null || used.coveredGpuHours().signum() == 0) {
            return new GpuHours(key, group, allocated, BigDecimal.ZERO, allocated, BigDecimal.ZERO, null, "NONE", null,
                    energy, energyCoverage, energySource, null);
        }
        return new GpuHours(key, group, allocated, used.usedGpuHours(), allocated.subtract(used.usedGpuHours()),
                share(used.coveredGpuHours(), allocated), used.metrics(), confidence(used),
                used.sources().stream().map(Enum::name).collect(Collectors.joining(",")),
                energy, energyCoverage, energySource, null);
    }

    /** A group whose cards drew energy while no unit held them, and that held nothing in the window. */
    public static GpuHours idleOnly(String key, Map<String, String> group, double idleJoules) {
        return new GpuHours(key, group, BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO, null, "NONE",
                null, BigDecimal.ZERO, BigDecimal.ZERO, null, kWh(idleJoules));
    }

    /** This row with the idle energy of its cards. */
    public GpuHours withIdleEnergy(double idleJoules) {
        return new GpuHours(key, group, allocatedGpuHours, usedGpuHours, idleGpuHours, usageCoverage, activityMetric,
                usageConfidence, usageSource, energyKWh, energyCoverage, energySource, kWh(idleJoules));
    }

    /** Joules as kilowatt-hours to the watt-hour's thousandth. */
    static BigDecimal kWh(double joules) {
        return BigDecimal.valueOf(joules).divide(JOULES_PER_KWH, 9, RoundingMode.HALF_EVEN).stripTrailingZeros();
    }

    private static BigDecimal share(BigDecimal part, BigDecimal whole) {
        return whole.signum() == 0 || part.signum() == 0 ? BigDecimal.ZERO
                : part.divide(whole, 6, RoundingMode.HALF_EVEN).min(BigDecimal.ONE);
    }

    /** Process SM time is GPU_UTIL too, but measured per pod: it is not the card's coarse figure. */
    static String confidence(UsedHours used) {
        if ("GPU_UTIL".equals(used.metrics()) && !used.sources().contains(UsageSource.PROCESS)) {
            return "LOW";
        }
        return used.sources().stream().allMatch(UsageSource::unshared) ? "HIGH" : "MEDIUM";
    }
}
