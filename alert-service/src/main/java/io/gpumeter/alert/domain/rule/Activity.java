package io.gpumeter.alert.domain.rule;

import io.gpumeter.alert.domain.Card;
import io.gpumeter.alert.domain.Minute;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A card's activity per minute: the larger of GR_ENGINE_ACTIVE and SM_ACTIVE where the card has profiling counters,
 * else the coarse GPU_UTIL (consumer cards, nvidia-smi pushes).
 */
final class Activity {

    static final List<String> PROFILING = List.of("GR_ENGINE_ACTIVE", "SM_ACTIVE");
    static final String COARSE = "GPU_UTIL";

    private Activity() {
    }

    /** Minute → activity (0..1) over minutes at or after {@code since}. */
    static Map<Instant, Double> perMinute(Card card, Instant since) {
        List<String> fields = PROFILING.stream().filter(f -> !card.series(f).isEmpty()).toList();
        if (fields.isEmpty()) {
            fields = List.of(COARSE);
        }
        Map<Instant, Double> activity = new TreeMap<>();
        for (String field : fields) {
            for (Minute m : card.series(field)) {
                if (!m.at().isBefore(since)) {
                    activity.merge(m.at(), m.mean(), Math::max);
                }
            }
        }
        return activity;
    }
}
