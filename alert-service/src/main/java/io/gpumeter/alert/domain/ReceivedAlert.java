package io.gpumeter.alert.domain;

import java.time.Instant;
import java.util.Map;

/**
 * One checked alert from Alertmanager's webhook. Its identity is the fingerprint and startsAt: Alertmanager
 * retries a notification, and repeats it every repeat_interval, with the same pair.
 *
 * @param endsAt null while firing with no end set
 */
public record ReceivedAlert(String fingerprint, String alertname, boolean firing, Map<String, String> labels,
                            Map<String, String> annotations, Instant startsAt, Instant endsAt, String generatorUrl) {

    public ReceivedAlert {
        labels = Map.copyOf(labels);
        annotations = Map.copyOf(annotations);
    }

    public String label(String name) {
        return labels.get(name);
    }
}
