package io.gpumeter.slo.rest;

import io.gpumeter.slo.repository.JitterEventRepository.StoredEvent;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * A jitter event in a list: its service (by namespace and name; namespace null for an event stored before services
 * belonged to a namespace), its span, how bad, and the first-ranked suspect ("namespace/pod") if any.
 */
public record JitterEventSummary(long id, String slo, String service, String namespace, String sli,
                                 Instant start, Instant end,
                                 int badMinutes, double peakP99Ms, BigDecimal thresholdMs, BigDecimal factor,
                                 BigDecimal limitMs, String topSuspect, Double topSuspectScore, Instant updatedAt) {

    static JitterEventSummary of(StoredEvent e) {
        return new JitterEventSummary(e.id(), e.slo(), e.service(), e.namespace(), e.sli().name(),
                e.start(), e.end(), e.badMinutes(),
                e.peakP99Ms(), e.thresholdMs(), e.factor(), limit(e), e.topSuspect(), e.topScore(), e.updatedAt());
    }

    static BigDecimal limit(StoredEvent e) {
        BigDecimal limit = e.thresholdMs().multiply(e.factor()).stripTrailingZeros();
        return limit.scale() < 0 ? limit.setScale(0) : limit;
    }
}
