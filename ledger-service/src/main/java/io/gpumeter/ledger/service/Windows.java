package io.gpumeter.ledger.service;

import io.gpumeter.common.fact.ClusterName;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.ledger.domain.TimeWindow;

import java.time.Duration;
import java.time.Instant;

/** The window and cluster checks the usage reports share. */
final class Windows {

    /** Reports that read usage minutes span at most a month; longer spans page by time. */
    static final Duration MAX_WINDOW = Duration.ofDays(31);

    private Windows() {
    }

    static TimeWindow require(Instant from, Instant to) {
        if (!to.isAfter(from)) {
            throw ApiProblem.badRequest("to", "to must be after from");
        }
        if (Duration.between(from, to).compareTo(MAX_WINDOW) > 0) {
            throw ApiProblem.badRequest("to", "a window may span at most " + MAX_WINDOW.toDays() + " days");
        }
        return new TimeWindow(from, to);
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
