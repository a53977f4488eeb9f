package io.gpumeter.alert.domain;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An occupied GPU as an evaluation sees it: its node, its holders, and its per-minute series by field name
 * (GR_ENGINE_ACTIVE, SM_ACTIVE, DRAM_ACTIVE, GPU_UTIL, XID …), oldest minute first.
 */
public record Card(String node, String gpuUuid, List<Holder> holders, Map<String, List<Minute>> series) {

    public Card {
        holders = List.copyOf(holders);
        series = Map.copyOf(series);
    }

    public List<Minute> series(String field) {
        return series.getOrDefault(field, List.of());
    }

    /** The newest minute of any series, or empty when the card was never measured in the look-back. */
    public Optional<Instant> lastReported() {
        return series.values().stream().flatMap(List::stream).map(Minute::at).max(Comparator.naturalOrder());
    }
}
