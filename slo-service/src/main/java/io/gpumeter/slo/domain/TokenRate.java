package io.gpumeter.slo.domain;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Tokens per second from readings of a cumulative counter (vLLM's {@code vllm:generation_tokens_total}) as Prometheus'
 * {@code rate} reads one: the increases between consecutive readings, a reading below the one before counting as a
 * restart (its whole value is new), over the time from the first reading to the last.
 */
public final class TokenRate {

    /** One reading of the counter. */
    public record Reading(Instant at, double value) {
    }

    private TokenRate() {
    }

    /** Null unless there are two readings at different instants. */
    public static Double perSecond(List<Reading> readings) {
        List<Reading> sorted = sorted(readings);
        Double tokens = increase(sorted);
        if (tokens == null) {
            return null;
        }
        Duration span = Duration.between(sorted.get(0).at(), sorted.get(sorted.size() - 1).at());
        return tokens / (span.toMillis() / 1000.0);
    }

    /**
     * The tokens generated from the first reading to the last: the increases between consecutive readings, a drop
     * counting the new reading whole. Null unless there are two readings at different instants.
     */
    public static Double increase(List<Reading> readings) {
        List<Reading> sorted = sorted(readings);
        if (sorted.size() < 2 || !sorted.get(sorted.size() - 1).at().isAfter(sorted.get(0).at())) {
            return null;
        }
        double tokens = 0;
        for (int i = 1; i < sorted.size(); i++) {
            double before = sorted.get(i - 1).value();
            double now = sorted.get(i).value();
            tokens += now >= before ? now - before : now;
        }
        return tokens;
    }

    private static List<Reading> sorted(List<Reading> readings) {
        List<Reading> sorted = new ArrayList<>(readings);
        sorted.sort(Comparator.comparing(Reading::at));
        return sorted;
    }
}
