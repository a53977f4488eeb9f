package io.gpumeter.ledger.governance.service;

import io.gpumeter.ledger.governance.domain.PodGroupTrail;
import io.gpumeter.ledger.governance.domain.TrailEntry;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/**
 * The scheduling audit of one object (Q6): where it stands, every wait that ended in admission, and the ordered
 * trail of decisions that explains it.
 *
 * @param kind   Workload, PodGroup or Pod
 * @param phases for a PodGroup, its phase trail
 */
public record Decision(String cluster, String kind, String namespace, String name, String uid, String state,
                       Instant waitingSince, String reasonClass, String rootCauseClass, String reason, String message,
                       int rejections, List<Wait> waits, List<PodGroupTrail.Phase> phases, List<TrailEntry> trail) {

    /** One wait that ended in admission. */
    public record Wait(Instant waitFrom, Instant reservedAt, Instant admittedAt, BigDecimal waitSeconds, boolean requeued) {
    }
}
