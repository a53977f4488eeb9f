package io.gpumeter.alert.repository;

import java.time.Instant;

/** A rule's state after the newest evaluation. */
public record StoredRuleStatus(String alertname, String severity, String condition, String status, String note,
                               int firing, Instant evaluatedAt) {
}
