package io.gpumeter.alert.repository;

import java.time.Instant;

/** One audited runbook action: the alert, what was done to which target with what result, and its undo. */
public record StoredAction(long id, String alertFingerprint, String alertname, Instant startsAt, String action,
                           String mode, String target, String result, String detail, Instant at, Instant resolvedAt,
                           String undoResult, String undoDetail, Instant undoneAt) {
}
