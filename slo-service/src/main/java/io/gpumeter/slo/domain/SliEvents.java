package io.gpumeter.slo.domain;

import org.HdrHistogram.Histogram;

import java.time.Instant;

/** Turns a minute of stored data into an SLO's good and total events. */
public final class SliEvents {

    private SliEvents() {
    }

    /**
     * A latency SLO's events in a minute of the service's merged histogram: per MINUTE one event, good when the
     * objective's percentile is at or under the threshold; per REQUEST one event per request.
     */
    public static MinuteEvents latency(Objective objective, Instant minute, Histogram merged) {
        double threshold = objective.thresholdMs().doubleValue();
        if (objective.per() == Per.MINUTE) {
            boolean good = LatencyHistograms.percentileAtOrBelow(merged, objective.percentile().doubleValue(), threshold);
            return new MinuteEvents(minute, good ? 1 : 0, 1);
        }
        return new MinuteEvents(minute, LatencyHistograms.countAtOrBelow(merged, threshold), merged.getTotalCount());
    }

    /** An availability SLO's events in a minute: every request, good unless it failed. */
    public static MinuteEvents availability(Instant minute, long requests, long failed) {
        return new MinuteEvents(minute, requests - failed, requests);
    }
}
