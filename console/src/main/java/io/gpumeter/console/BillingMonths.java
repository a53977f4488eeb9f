package io.gpumeter.console;

import jakarta.enterprise.context.ApplicationScoped;

import java.time.YearMonth;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where billing-service last said each month runs ({@link BillingMonth}, from its cost series). The Hours page asks
 * the ledger for a month it has seen at once, beside billing's reads, instead of after billing's series; the series
 * still decides: when it says otherwise (billing's zone changed) or does not answer, the ledger is asked again for
 * the window the page would have asked for without this, so the figures shown are the same either way.
 */
@ApplicationScoped
class BillingMonths {

    /** Three years of months is more than anyone pages through; the least recently shown go first. */
    private static final int KEPT = 36;

    private final Map<YearMonth, BillingMonth> said = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<YearMonth, BillingMonth> eldest) {
            return size() > KEPT;
        }
    };

    /** The window billing last gave the month, null when it has not said. */
    synchronized BillingMonth lastSaid(YearMonth month) {
        return said.get(month);
    }

    /** Remembers what billing's series said of the month; a window it did not give (with a note) is forgotten. */
    synchronized void heard(YearMonth month, BillingMonth window) {
        if (window.note() == null) {
            said.put(month, window);
        } else {
            said.remove(month);
        }
    }
}
