package io.gpumeter.ledger.triad.domain;

import io.gpumeter.ledger.allocation.domain.UnitKind;

import java.time.Instant;
import java.util.List;

/**
 * The triad diagnosis of one card over a window, and of each pod that held a unit of it.
 *
 * @param card the card's device-level series
 */
public record GpuDiagnosis(String gpuUuid, Instant from, Instant to, TriadThresholds thresholds, TriadSummary card,
                           List<Pod> pods) {

    /**
     * One pod's share of the diagnosis, over the minutes it held a unit of the card.
     *
     * @param series     DEVICE (the card's own series) or MIG_INSTANCE/&lt;GPU instance id&gt; (the pod's instance)
     * @param sharedCard the series is the card's and another pod held a unit of the card at the same time, so the
     *                   figures describe the card, not this pod alone
     * @param until      null while the unit is held
     */
    public record Pod(String cluster, String namespace, String pod, String podUid, UnitKind unitKind, String migProfile,
                      Instant since, Instant until, String series, boolean sharedCard, TriadSummary triad) {
    }
}
