package io.gpumeter.alert.domain;

import java.util.List;
import java.util.Map;

/**
 * Alertmanager's webhook body, version 4, as sent: strings as they arrive, checked by {@link WebhookMessages}.
 *
 * @param truncatedAlerts how many alerts Alertmanager left out because of the receiver's max_alerts
 */
public record WebhookPayload(String version, String groupKey, Integer truncatedAlerts, String status, String receiver,
                             Map<String, String> groupLabels, Map<String, String> commonLabels,
                             Map<String, String> commonAnnotations, String externalURL, List<Alert> alerts) {

    /** One alert of the notification. */
    public record Alert(String status, Map<String, String> labels, Map<String, String> annotations, String startsAt,
                        String endsAt, String generatorURL, String fingerprint) {
    }
}
