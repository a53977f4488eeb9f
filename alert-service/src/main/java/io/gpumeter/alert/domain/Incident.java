package io.gpumeter.alert.domain;

import java.time.Instant;

/**
 * A failure the ledger recorded: its cause ("oom", "cuda-oom", "gpu-lost", "gpu-health", "xid-48" …), root-cause
 * class, where, when it started, whether it is still open, the ledger's evidence line (null when it has none), and
 * the ledger's stable id, which reviews are keyed by (null from a ledger that gives none).
 */
public record Incident(String cause, String rootCauseClass, String node, String gpuUuid, String namespace, String pod,
                       Instant startedAt, boolean open, String evidence, String id) {

    /** An incident without the ledger's id. */
    public Incident(String cause, String rootCauseClass, String node, String gpuUuid, String namespace, String pod,
                    Instant startedAt, boolean open, String evidence) {
        this(cause, rootCauseClass, node, gpuUuid, namespace, pod, startedAt, open, evidence, null);
    }

    /** An incident without an evidence line. */
    public Incident(String cause, String rootCauseClass, String node, String gpuUuid, String namespace, String pod,
                    Instant startedAt, boolean open) {
        this(cause, rootCauseClass, node, gpuUuid, namespace, pod, startedAt, open, null);
    }
}
