package io.gpumeter.alert.repository;

import java.time.Instant;
import java.util.Map;

/** An alert episode as stored. */
public record StoredEpisode(String fingerprint, Instant startsAt, String alertname, String severity,
                            Map<String, String> labels, Map<String, String> annotations, String state, Instant endsAt,
                            Instant lastEvaluatedAt) {
}
