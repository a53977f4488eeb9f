package io.gpumeter.slo.domain;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/** Finds jitter: runs of consecutive minutes whose p99 is strictly above k times an objective's threshold. */
public final class JitterRuns {

    private static final Duration MINUTE = Duration.ofMinutes(1);

    /** Consecutive bad minutes {@code [start, end)}: how many, and the worst minute's p99. */
    public record Run(Instant start, Instant end, int badMinutes, double peakP99Ms) {

        /** Whether this run overlaps or directly follows / precedes {@code [start, end)}. */
        public boolean touches(Instant otherStart, Instant otherEnd) {
            return !start.isAfter(otherEnd) && !otherStart.isAfter(end);
        }
    }

    private JitterRuns() {
    }

    /**
     * The runs in a per-minute p99 curve; a minute without requests ends a run, as nothing was measured then.
     *
     * @param p99ByMinute p99 in ms keyed by minute start, in order
     * @param limitMs     k x the objective's threshold
     */
    public static List<Run> find(SortedMap<Instant, Double> p99ByMinute, double limitMs) {
        List<Run> runs = new ArrayList<>();
        Instant start = null;
        Instant last = null;
        int count = 0;
        double peak = 0;
        for (Map.Entry<Instant, Double> e : p99ByMinute.entrySet()) {
            boolean bad = e.getValue() != null && e.getValue() > limitMs;
            boolean continues = last != null && last.plus(MINUTE).equals(e.getKey());
            if (start != null && (!bad || !continues)) {
                runs.add(new Run(start, last.plus(MINUTE), count, peak));
                start = null;
            }
            if (bad) {
                if (start == null) {
                    start = e.getKey();
                    count = 0;
                    peak = 0;
                }
                count++;
                peak = Math.max(peak, e.getValue());
            }
            last = e.getKey();
        }
        if (start != null) {
            runs.add(new Run(start, last.plus(MINUTE), count, peak));
        }
        return runs;
    }
}
