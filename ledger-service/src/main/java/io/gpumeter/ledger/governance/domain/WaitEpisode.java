package io.gpumeter.ledger.governance.domain;

import java.time.Duration;
import java.time.Instant;

/**
 * One wait that ended in admission: from creation (or the last eviction/requeue) to QuotaReserved turning True
 * (Kueue), Scheduled turning True (Volcano) or PodScheduled (plain pod).
 *
 * @param admittedAt when the object counts as admitted for windowing (Kueue: Admitted turning True)
 */
public record WaitEpisode(QueueKeys keys, Instant waitFrom, Instant reservedAt, Instant admittedAt, boolean requeued) {

    public long waitMillis() {
        return Math.max(0, Duration.between(waitFrom, reservedAt).toMillis());
    }
}
