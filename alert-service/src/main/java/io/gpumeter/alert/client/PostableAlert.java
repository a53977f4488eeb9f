package io.gpumeter.alert.client;

import java.util.Map;

/** One alert as Alertmanager's POST /api/v2/alerts takes it; times are RFC 3339. */
public record PostableAlert(Map<String, String> labels, Map<String, String> annotations, String startsAt, String endsAt,
                            String generatorURL) {
}
