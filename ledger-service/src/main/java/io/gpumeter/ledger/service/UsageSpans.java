package io.gpumeter.ledger.service;

import io.gpumeter.ledger.usage.domain.UsagePoint;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A card's usage points folded into spans of a step from the window's start, each series on its own: a span's mean
 * is the mean of every sample in it (each point weighs its samples, so an hour folded by the retention weighs its
 * hour), its max the largest, its seconds those its points cover. A point that starts before the window (an hour
 * the retention folded) falls in the first span.
 */
final class UsageSpans {

    private UsageSpans() {
    }

    static List<UsagePoint> fold(List<UsagePoint> points, Instant from, Duration step) {
        Map<String, Span> spans = new LinkedHashMap<>();
        for (UsagePoint p : points) {
            long index = p.minute().isBefore(from) ? 0 : Duration.between(from, p.minute()).dividedBy(step);
            Instant start = from.plus(step.multipliedBy(index));
            spans.computeIfAbsent(p.scope() + "\u0000" + p.scopeKey() + "\u0000" + p.field() + "\u0000" + start,
                    k -> new Span(p, start)).add(p);
        }
        List<UsagePoint> out = new ArrayList<>();
        spans.values().forEach(s -> out.add(s.point()));
        return out;
    }

    /** One series' sums over one span. */
    private static final class Span {
        private final UsagePoint first;
        private final Instant start;
        private double weighted;
        private double max = Double.NEGATIVE_INFINITY;
        private int samples;
        private int seconds;

        Span(UsagePoint first, Instant start) {
            this.first = first;
            this.start = start;
        }

        void add(UsagePoint p) {
            weighted += p.mean() * p.samples();
            max = Math.max(max, p.max());
            samples += p.samples();
            seconds += p.seconds();
        }

        UsagePoint point() {
            return new UsagePoint(first.scope(), first.scopeKey(), first.field(), start, samples == 0 ? 0 : weighted / samples,
                    max, samples, seconds);
        }
    }
}
