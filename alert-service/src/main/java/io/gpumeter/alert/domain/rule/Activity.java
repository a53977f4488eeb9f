package io.gpumeter.alert.domain.rule;

import io.gpumeter.alert.domain.Card;
import io.gpumeter.alert.domain.Minute;
import io.gpumeter.common.fact.UsageField;

import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * A card's activity per minute by the suite's one rule ({@link UsageField#ACTIVITY}, as the ledger's idle hours read
 * it): SM_ACTIVE where the minute measured it, else GR_ENGINE_ACTIVE, else GPU_UTIL.
 */
final class Activity {

    private Activity() {
    }

    /** Minute → activity (0..1) over minutes at or after {@code since}; a minute measuring none of the three is absent. */
    static Map<Instant, Double> perMinute(Card card, Instant since) {
        Map<Instant, Map<UsageField, Double>> minutes = new TreeMap<>();
        for (UsageField field : UsageField.ACTIVITY) {
            for (Minute m : card.series(field.name())) {
                if (!m.at().isBefore(since)) {
                    minutes.computeIfAbsent(m.at(), at -> new EnumMap<>(UsageField.class)).put(field, m.mean());
                }
            }
        }
        Map<Instant, Double> activity = new TreeMap<>();
        minutes.forEach((at, measured) -> UsageField.activity(measured::get)
                .ifPresent(reading -> activity.put(at, reading.value())));
        return activity;
    }
}
