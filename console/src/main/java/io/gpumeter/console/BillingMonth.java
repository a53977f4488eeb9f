package io.gpumeter.console;

import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.List;

/**
 * The window of a billing month as billing-service answers it in its cost series: from its first bucket's start to
 * its last bucket's end (the local midnights of billing's zone). The console never assumes a zone of its own.
 *
 * @param note null when billing said where its month runs; else why the window is the UTC month
 */
record BillingMonth(String from, String to, String note) {

    /** Billing's month, or — when its series did not answer — the UTC month with a note saying so. */
    static BillingMonth of(BillingAnswers.Series series, YearMonth month) {
        List<BillingAnswers.Bucket> buckets = series == null || series.buckets() == null ? List.of() : series.buckets();
        if (!buckets.isEmpty() && buckets.get(0).start() != null && buckets.get(buckets.size() - 1).end() != null) {
            return new BillingMonth(buckets.get(0).start(), buckets.get(buckets.size() - 1).end(), null);
        }
        return new BillingMonth(month.atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC).toString(),
                month.plusMonths(1).atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC).toString(),
                "The GPU-hours are for the UTC month " + month + "; billing's cost may count its month between other midnights.");
    }
}
