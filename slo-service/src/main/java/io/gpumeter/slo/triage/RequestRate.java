package io.gpumeter.slo.triage;

import io.gpumeter.common.domain.TimeWindow;

import java.time.Duration;
import java.time.Instant;
import java.util.NavigableMap;

/**
 * A service's requests in a slow spell against the span before it: the rate per minute of each, every minute of a
 * span counted (a minute without requests is a minute of no load, not a missing one).
 *
 * @param ratio the spell's rate over the baseline's; null when the baseline had no requests, so no rise can be told
 */
public record RequestRate(TimeWindow baseline, long baselineRequests, double baselinePerMinute, TimeWindow spell,
                          long spellRequests, double spellPerMinute, Double ratio) {

    /**
     * @param perMinute the service's requests by minute (all its pods summed), covering at least both spans
     * @param start     the spell's first minute; the baseline is the {@code baseline} before it
     * @param end       the spell's end (exclusive)
     */
    public static RequestRate of(NavigableMap<Instant, Long> perMinute, Instant start, Instant end, Duration baseline) {
        TimeWindow before = new TimeWindow(start.minus(baseline), start);
        TimeWindow during = new TimeWindow(start, end.isAfter(start) ? end : start.plus(Duration.ofMinutes(1)));
        long b = sum(perMinute, before);
        long s = sum(perMinute, during);
        double bRate = b / (double) minutes(before);
        double sRate = s / (double) minutes(during);
        return new RequestRate(before, b, round(bRate), during, s, round(sRate), b == 0 ? null : round(sRate / bRate));
    }

    /** Whether the spell's rate is at least {@code factor} times the baseline's (never without a baseline). */
    public boolean rose(double factor) {
        return ratio != null && ratio >= factor;
    }

    private static long sum(NavigableMap<Instant, Long> perMinute, TimeWindow w) {
        return perMinute.subMap(w.start(), true, w.end(), false).values().stream().mapToLong(Long::longValue).sum();
    }

    /** The minutes starting in the window, a part minute counting whole. */
    private static long minutes(TimeWindow w) {
        return Math.max(1, (w.duration().toSeconds() + 59) / 60);
    }

    private static double round(double v) {
        return Math.round(v * 1000d) / 1000d;
    }
}
