package io.gpumeter.ledger.history.domain;

import java.time.Instant;

/**
 * An exporter saw a pod on this card (scopeKey "") or on this MIG instance (scopeKey = GPU instance id) between
 * the two instants.
 */
public record GpuBinding(String gpuUuid, String scopeKey, String migProfile, Instant firstSeen, Instant lastSeen) {

    public boolean isMigInstance() {
        return scopeKey != null && !scopeKey.isEmpty();
    }

    /** Whether the sighting falls in an allocation [since, until); until null means still held. */
    public boolean during(Instant since, Instant until) {
        return !lastSeen.isBefore(since) && (until == null || firstSeen.isBefore(until));
    }
}
