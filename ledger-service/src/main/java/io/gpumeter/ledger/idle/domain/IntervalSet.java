package io.gpumeter.ledger.idle.domain;

import io.gpumeter.common.domain.TimeWindow;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/** A union of half-open time windows, kept sorted and disjoint. */
public final class IntervalSet {

    public static final IntervalSet EMPTY = new IntervalSet(List.of());

    private final List<TimeWindow> windows;

    private IntervalSet(List<TimeWindow> windows) {
        this.windows = windows;
    }

    /** The union of these windows; empty windows vanish and touching ones merge. */
    public static IntervalSet of(Collection<TimeWindow> windows) {
        List<TimeWindow> sorted = windows.stream().filter(w -> w.end().isAfter(w.start()))
                .sorted(Comparator.comparing(TimeWindow::start)).toList();
        List<TimeWindow> merged = new ArrayList<>();
        for (TimeWindow w : sorted) {
            TimeWindow last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
            if (last != null && !w.start().isAfter(last.end())) {
                merged.set(merged.size() - 1, new TimeWindow(last.start(), max(last.end(), w.end())));
            } else {
                merged.add(w);
            }
        }
        return new IntervalSet(List.copyOf(merged));
    }

    public IntervalSet intersect(IntervalSet other) {
        List<TimeWindow> out = new ArrayList<>();
        int i = 0;
        int j = 0;
        while (i < windows.size() && j < other.windows.size()) {
            TimeWindow a = windows.get(i);
            TimeWindow b = other.windows.get(j);
            Instant start = max(a.start(), b.start());
            Instant end = a.end().isBefore(b.end()) ? a.end() : b.end();
            if (end.isAfter(start)) {
                out.add(new TimeWindow(start, end));
            }
            if (a.end().isBefore(b.end())) {
                i++;
            } else {
                j++;
            }
        }
        return new IntervalSet(List.copyOf(out));
    }

    public Duration duration() {
        return windows.stream().map(TimeWindow::duration).reduce(Duration.ZERO, Duration::plus);
    }

    public List<TimeWindow> windows() {
        return windows;
    }

    private static Instant max(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }
}
