package io.gpumeter.ledger.demand.domain;

import io.gpumeter.ledger.governance.domain.NearestRank;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/** A model's worst day of queue wait and its typical day, from the waits admitted on each day. */
public final class QueueWaitPeaks {

    private QueueWaitPeaks() {
    }

    /**
     * The day's p95 (nearest rank, as {@code GET /api/v1/queue-wait} ranks) of each day with waits; the worst of them
     * with its first day, and their median (nearest rank again, so always one of the days' figures). Null without
     * waits.
     *
     * @param waitMillisByDay the waits in milliseconds by local day, in day order
     */
    public static Demand.QueueWaitPeak of(SortedMap<String, List<Long>> waitMillisByDay) {
        if (waitMillisByDay.isEmpty()) {
            return null;
        }
        List<Long> p95s = new ArrayList<>();
        long peak = -1;
        String peakDay = null;
        int waits = 0;
        for (Map.Entry<String, List<Long>> day : waitMillisByDay.entrySet()) {
            long p95 = NearestRank.of(day.getValue(), 95);
            waits += day.getValue().size();
            p95s.add(p95);
            if (p95 > peak) {
                peak = p95;
                peakDay = day.getKey();
            }
        }
        return new Demand.QueueWaitPeak(seconds(peak), peakDay, seconds(NearestRank.of(p95s, 50)), p95s.size(), waits);
    }

    static BigDecimal seconds(long millis) {
        return ShapeBook.plain(BigDecimal.valueOf(millis, 3));
    }
}
