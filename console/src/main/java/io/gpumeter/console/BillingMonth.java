package io.gpumeter.console;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.YearMonth;
import java.time.ZoneOffset;

/**
 * The window of a billing month as billing-service answers it in its cost series: from its first bucket's start to
 * its last bucket's end (the local midnights of billing's zone). The console never assumes a zone of its own.
 */
final class BillingMonth {

    private BillingMonth() {
    }

    /**
     * {from, to, note}: billing's month, or — when its series did not answer — the UTC month with a note saying so.
     */
    static String[] window(Answer series, YearMonth month) {
        if (series.ok()) {
            JsonNode buckets = series.json().path("buckets");
            String from = buckets.isArray() && !buckets.isEmpty() ? Format.text(buckets.get(0), "start") : null;
            String to = buckets.isArray() && !buckets.isEmpty() ? Format.text(buckets.get(buckets.size() - 1), "end") : null;
            if (from != null && to != null) {
                return new String[]{from, to, null};
            }
        }
        return new String[]{month.atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC).toString(),
                month.plusMonths(1).atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC).toString(),
                "The GPU-hours are for the UTC month " + month + "; billing's cost may count its month between other midnights."};
    }
}
