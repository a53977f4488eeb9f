package io.gpumeter.alert.domain;

import java.time.Instant;

/**
 * A failure the ledger recorded: its cause ("oom", "cuda-oom", "gpu-lost", "xid-48" …), root-cause class, where,
 * when it started and whether it is still open.
 */
public record Incident(String cause, String rootCauseClass, String node, String gpuUuid, String namespace, String pod,
                       Instant startedAt, boolean open) {
}
