package io.gpumeter.ledger.governance.domain;

import io.gpumeter.common.triage.PendingReason;

import java.time.Instant;

/**
 * One step of a scheduling decision trail: what happened, when, why, and the class of the reason when it is a
 * refusal or a failure.
 *
 * @param step     created, pending, quota-reserved, admitted, admission-check, evicted, preempted, requeued,
 *                 finished, deleted, phase, unschedulable, scheduled, failed-scheduling, check, container, event
 * @param detail   placement (ClusterQueue and flavors, node), a preemptor UID, a repeat count
 */
public record TrailEntry(Instant at, String step, String status, String reason, String message, String reasonClass,
                         String rootCauseClass, String detail) {

    static TrailEntry of(Instant at, String step, String status, String reason, String message, String detail) {
        return new TrailEntry(at, step, status, reason, message, null, null, detail);
    }

    static TrailEntry refusal(Instant at, String step, String reason, String message, PendingReason cls, String detail) {
        return new TrailEntry(at, step, null, reason, message, cls.label(), cls.rootCause().label(), detail);
    }
}
