package io.gpumeter.alert.domain.rule;

import io.gpumeter.alert.domain.Card;
import io.gpumeter.alert.domain.Minute;

import java.time.Instant;
import java.util.List;
import java.util.OptionalInt;

/** Reading a card's XID series: each minute's maximum is the last Xid code dcgm-exporter reported. */
final class Xids {

    static final String FIELD = "XID";

    private Xids() {
    }

    /** The code of the newest minute, if the card reported any. */
    static OptionalInt latest(Card card) {
        List<Minute> xids = card.series(FIELD);
        return xids.isEmpty() ? OptionalInt.empty() : OptionalInt.of((int) xids.get(xids.size() - 1).max());
    }

    /** The code of the newest minute before {@code since}, or 0 (no Xid) when there is none. */
    static int before(Card card, Instant since) {
        int code = 0;
        for (Minute m : card.series(FIELD)) {
            if (m.at().isBefore(since)) {
                code = (int) m.max();
            }
        }
        return code;
    }
}
