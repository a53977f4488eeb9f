package io.gpumeter.ledger.governance.domain;

import io.gpumeter.common.triage.RootCauseClass;

import java.time.Duration;
import java.time.Instant;

/**
 * One failure with its start and recovery. A failure whose subject went away without recovering is ended, not
 * open, and counts in the rate but not in MTTR.
 *
 * @param key         natural key: scope, subject, cause and start
 * @param scope       pod or gpu
 * @param subject     the pod uid, or node/PCI address of the card
 * @param occurrences how many reports (restarts, Xid lines, log lines) the incident gathered
 */
public record Incident(String key, String scope, String subject, String cause, RootCauseClass rootCause, String node,
                       String gpuPci, String gpuUuid, String namespace, String pod, String podUid, Instant startedAt,
                       Instant recoveredAt, Instant endedAt, int occurrences, String evidence) {

    public boolean open() {
        return recoveredAt == null && endedAt == null;
    }

    /** Time to recover, or null while not recovered. */
    public Duration repair() {
        return recoveredAt == null ? null : Duration.between(startedAt, recoveredAt);
    }
}
