package io.gpumeter.slo.rest;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.gpumeter.slo.client.Change;
import io.gpumeter.slo.repository.JitterEventRepository.StoredEvent;
import io.gpumeter.slo.service.ChangesBefore;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/**
 * A jitter event in a list: its service (by namespace and name; namespace null for an event stored before services
 * belonged to a namespace), its span, how bad, the first-ranked suspect ("namespace/pod") if any, and
 * {@code changesBefore}: the changes of the nodes its pods ran on and of their clusters within the look-back before its
 * start, newest first, at most 10 — absent, with {@code changesBeforeNote} saying why, when the ledger could not be
 * read (the note also says when the ledger placed its pods on no node).
 */
public record JitterEventSummary(long id, String slo, String service, String namespace, String sli,
                                 Instant start, Instant end,
                                 int badMinutes, double peakP99Ms, BigDecimal thresholdMs, BigDecimal factor,
                                 BigDecimal limitMs, String topSuspect, Double topSuspectScore, Instant updatedAt,
                                 @JsonInclude(JsonInclude.Include.NON_NULL) List<Change> changesBefore,
                                 @JsonInclude(JsonInclude.Include.NON_NULL) String changesBeforeNote) {

    static JitterEventSummary of(StoredEvent e, ChangesBefore.Found changes) {
        return new JitterEventSummary(e.id(), e.slo(), e.service(), e.namespace(), e.sli().name(),
                e.start(), e.end(), e.badMinutes(),
                e.peakP99Ms(), e.thresholdMs(), e.factor(), limit(e), e.topSuspect(), e.topScore(), e.updatedAt(),
                changes == null ? null : changes.changes(), changes == null ? null : changes.note());
    }

    static BigDecimal limit(StoredEvent e) {
        BigDecimal limit = e.thresholdMs().multiply(e.factor()).stripTrailingZeros();
        return limit.scale() < 0 ? limit.setScale(0) : limit;
    }
}
