package io.gpumeter.ledger.service;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.common.fact.ClusterName;
import io.gpumeter.common.problem.Params;

import java.time.Duration;
import java.time.Instant;

/** The window and cluster checks the usage reports share. */
final class Windows {

    /** Reports that read usage minutes span at most a month; longer spans page by time. */
    static final Duration MAX_WINDOW = Duration.ofDays(31);

    private Windows() {
    }

    static TimeWindow require(Instant from, Instant to) {
        return Params.window(from, to, MAX_WINDOW);
    }

    /** Time after now has not happened yet: held units count up to the earlier of the window's end and now. */
    static Instant cap(TimeWindow window, Instant now) {
        return now.isBefore(window.end()) ? now : window.end();
    }

    /** An optional cluster filter; null or empty means every cluster. */
    static String cluster(String cluster) {
        return cluster == null || cluster.isEmpty() ? null : ClusterName.require("cluster", cluster);
    }
}
