package io.gpumeter.ledger.domain;

import java.time.Instant;

/**
 * An episode of a pod using more than it was allocated, or using a card it holds nothing on, or of the quota
 * system's books disagreeing with the device.
 *
 * @param kind      SOFT: over the allocation for less than the hard threshold; HARD: sustained over it;
 *                  BYPASS: usage on a card where the pod holds no allocation; DRIFT: HAMi's per-container memory
 *                  sum and the card's FB_USED disagree beyond the tolerance
 * @param resource  CORES or MEMORY; PROCESS for a bypass seen in nvidia-smi's per-process series
 * @param peakRatio the worst minute's use divided by the allocation (for DRIFT: the gap divided by FB_USED); null
 *                  where there is nothing to divide by (a bypass holds no allocation)
 */
public record Violation(Kind kind, String resource, String cluster, String gpuUuid, String namespace, String pod,
                        String container, Instant start, Instant end, int minutes, Double peakRatio) {

    /** What kind of episode. */
    public enum Kind { SOFT, HARD, BYPASS, DRIFT }
}
