package io.gpumeter.ledger.governance.domain;

import io.gpumeter.common.triage.PendingReason;

import java.time.Instant;

/**
 * Where one object stands in its queue now.
 *
 * @param waitingSince for a waiting object, since when (creation or the last eviction/requeue)
 * @param rejections   how many times admission was refused (QuotaReserved=False with a reason, Pending events)
 */
public record QueueState(QueueKeys keys, Instant createdAt, State state, Instant waitingSince, PendingReason reasonClass,
                         String reason, String message, int rejections, int admissions) {

    /** The states an object moves through. */
    public enum State {
        PENDING, ADMITTED, EVICTED, INACTIVE, FINISHED, DELETED
    }
}
