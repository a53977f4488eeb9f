package io.gpumeter.ledger.governance.domain;

import io.gpumeter.common.fact.UsageField;
import io.gpumeter.common.fact.UsageSample;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * One reading of a card's dcgm-exporter Xid gauge (DCGM_FI_DEV_XID_ERRORS): the last Xid code the card reported at
 * that second, 0 for none.
 */
public record XidReading(String gpuUuid, Instant at, int code, String node) {

    /**
     * The readings of a delivery worth keeping: per card, the first and last reading of every run of one value (the
     * gauge repeats its value on every scrape, and only changes matter). A card read twice in one second (its device
     * and MIG-instance series) keeps the higher code of that second.
     */
    public static List<XidReading> runBoundaries(List<UsageSample> samples) {
        Map<String, Map<Instant, XidReading>> byCard = new TreeMap<>();
        for (UsageSample s : samples) {
            if (s.field() != UsageField.XID || s.gpuUuid() == null) {
                continue;
            }
            Instant second = s.at().truncatedTo(ChronoUnit.SECONDS);
            XidReading reading = new XidReading(s.gpuUuid(), second, (int) Math.round(s.value()), s.node());
            byCard.computeIfAbsent(s.gpuUuid(), k -> new TreeMap<>())
                    .merge(second, reading, (a, b) -> a.code() >= b.code() ? a : b);
        }
        List<XidReading> kept = new ArrayList<>();
        for (Map<Instant, XidReading> readings : byCard.values()) {
            List<XidReading> ordered = List.copyOf(readings.values());
            for (int i = 0; i < ordered.size(); i++) {
                boolean first = i == 0 || ordered.get(i - 1).code() != ordered.get(i).code();
                boolean last = i == ordered.size() - 1 || ordered.get(i + 1).code() != ordered.get(i).code();
                if (first || last) {
                    kept.add(ordered.get(i));
                }
            }
        }
        return kept;
    }

    /** The readings of one card in time order. */
    static List<XidReading> ordered(List<XidReading> readings) {
        return readings.stream().sorted(Comparator.comparing(XidReading::at)).collect(Collectors.toList());
    }
}
