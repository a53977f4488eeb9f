package io.gpumeter.ledger.governance.domain;

import io.gpumeter.common.fact.UsageSample;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** One reading of one of a card's memory-health series (a flag or a count) at one second. */
public record HealthReading(String gpuUuid, HealthSignal signal, Instant at, long value, String node) {

    /** Time order; readings of one second in signal order, so a derivation is the same whatever the storage order. */
    static final Comparator<HealthReading> ORDER = Comparator.comparing(HealthReading::at).thenComparing(HealthReading::signal);

    /**
     * The readings of a delivery worth keeping: per card and signal, the first and last reading of every run of one
     * value (the exporter repeats the value on every scrape, and only changes matter). A card read twice in one second
     * (its device series and a MIG instance's copy) keeps the higher value of that second.
     */
    public static List<HealthReading> runBoundaries(List<UsageSample> samples) {
        Map<String, Map<Instant, HealthReading>> bySeries = new TreeMap<>();
        for (UsageSample s : samples) {
            HealthSignal signal = HealthSignal.of(s.field());
            if (signal == null || s.gpuUuid() == null) {
                continue;
            }
            Instant second = s.at().truncatedTo(ChronoUnit.SECONDS);
            HealthReading reading = new HealthReading(s.gpuUuid(), signal, second, Math.round(s.value()), s.node());
            bySeries.computeIfAbsent(s.gpuUuid() + "\u0000" + signal, k -> new TreeMap<>())
                    .merge(second, reading, (a, b) -> a.value() >= b.value() ? a : b);
        }
        List<HealthReading> kept = new ArrayList<>();
        for (Map<Instant, HealthReading> readings : bySeries.values()) {
            List<HealthReading> ordered = List.copyOf(readings.values());
            for (int i = 0; i < ordered.size(); i++) {
                long value = ordered.get(i).value();
                boolean first = i == 0 || ordered.get(i - 1).value() != value;
                boolean last = i == ordered.size() - 1 || ordered.get(i + 1).value() != value;
                if (first || last) {
                    kept.add(ordered.get(i));
                }
            }
        }
        return kept;
    }
}
