package io.gpumeter.ledger.usage.domain;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/**
 * Why a card's clocks were held down over [from, to), per clocks-event reason, and what its violation counters say.
 *
 * @param reasons the reasons whose series were measured in the window, in NVML's bit order
 * @param power   time held back by the power limit (DCGM_FI_DEV_POWER_VIOLATION), null where not exported
 * @param thermal time held back by heat (DCGM_FI_DEV_THERMAL_VIOLATION), null where not exported
 */
public record Throttling(String gpuUuid, Instant from, Instant to, List<Reason> reasons, Violation power,
                         Violation thermal) {

    /**
     * One reason.
     *
     * @param kind      POWER, THERMAL, POWER_OR_THERMAL (NVML's hardware slowdown), SYNC_BOOST or INFORMATIONAL
     * @param slowsWork false for the informational reasons (GPU idle, applications clocks, display clocks), whose
     *                  lowered clocks slow no work that runs
     * @param minutes   the minutes the reason was active: each minute counts the share of its samples it was active
     *                  in (a minute is a set of samples; an hour before the minute retention adds its minutes' shares)
     * @param episodes  the stretches of consecutive measured minutes (hours) with the reason active in any sample
     */
    public record Reason(String reason, String kind, boolean slowsWork, BigDecimal minutes, List<Episode> episodes) {
    }

    /**
     * A stretch of throttling.
     *
     * @param powerViolationSeconds   the power violation counter's increase within the stretch, null if not exported
     * @param thermalViolationSeconds the thermal violation counter's increase within the stretch, null if not exported
     */
    public record Episode(Instant from, Instant to, BigDecimal minutes, BigDecimal powerViolationSeconds,
                          BigDecimal thermalViolationSeconds) {
    }

    /**
     * A violation counter over the window.
     *
     * @param seconds        the time held back
     * @param coveredSeconds the time the counter's readings covered, of which {@code seconds} is a part
     */
    public record Violation(BigDecimal seconds, BigDecimal coveredSeconds) {
    }
}
