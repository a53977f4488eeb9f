package io.gpumeter.ledger.governance.domain;

import java.time.Duration;
import java.time.Instant;

/**
 * A MIG instance dcgm-exporter reported on a card without a gap longer than the staleness: its GPU instance id, its
 * profile, and the first and last instant reported.
 */
public record MigInstanceRun(String gpuUuid, String instance, String profile, Instant firstSeen, Instant lastSeen) {

    /** Reported at {@code t}: seen by then, and last seen less than {@code staleness} before it. */
    public boolean presentAt(Instant t, Duration staleness) {
        return !firstSeen.isAfter(t) && lastSeen.plus(staleness).isAfter(t);
    }
}
