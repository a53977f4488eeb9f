package io.gpumeter.ledger.service;

import io.gpumeter.ledger.inventory.domain.GpuModels;
import io.gpumeter.ledger.service.CapacityService.CardHours;
import io.gpumeter.ledger.service.CapacityService.Dimension;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Card-seconds summed by group, exactly, then read as card-hours. A group is one value per dimension; a model counts as
 * one however its sources spell it, and is shown under the spelling that sorts first, so that the answer does not
 * depend on the order the cards arrive in.
 */
final class CardHourTally {

    private static final BigDecimal SECONDS_PER_HOUR = BigDecimal.valueOf(3600);
    private static final int HOURS_SCALE = 12;

    private final List<Dimension> dims;
    private final Map<String, Map<String, String>> groups = new HashMap<>();
    private final Map<String, BigDecimal> seconds = new HashMap<>();

    CardHourTally(List<Dimension> dims) {
        this.dims = dims;
    }

    /** Adds {@code cards} cards held for {@code overlap}; nothing when the overlap is empty. */
    void add(String cluster, String node, String model, String bucket, Duration overlap, int cards) {
        if (overlap.isZero() || overlap.isNegative()) {
            return;
        }
        Map<String, String> group = new LinkedHashMap<>();
        List<String> parts = new ArrayList<>(dims.size());
        for (Dimension d : dims) {
            String value = switch (d) {
                case CLUSTER -> cluster;
                case NODE -> node;
                case MODEL -> model;
                case DAY, WEEK, MONTH -> bucket;
            };
            group.put(d.label(), value);
            // A card registered as "NVIDIA A100-SXM4-80GB" and a node labelled "NVIDIA-A100-SXM4-80GB" are one model.
            String part = d == Dimension.MODEL ? GpuModels.canonical(value) : value;
            parts.add(part == null ? "" : part);
        }
        String key = String.join("/", parts);
        groups.merge(key, group, CardHourTally::firstSpelling);
        BigDecimal exact = BigDecimal.valueOf(overlap.getSeconds()).add(BigDecimal.valueOf(overlap.getNano(), 9))
                .multiply(BigDecimal.valueOf(cards));
        seconds.merge(key, exact, BigDecimal::add);
    }

    /** Every group's card-hours, keyed and ordered by the values it shows. */
    List<CardHours> cardHours() {
        List<CardHours> out = new ArrayList<>(groups.size());
        groups.forEach((key, group) -> {
            BigDecimal hours = seconds.get(key).divide(SECONDS_PER_HOUR, HOURS_SCALE, RoundingMode.HALF_EVEN)
                    .stripTrailingZeros();
            String shown = String.join("/", group.values().stream().map(v -> v == null ? "" : v).toList());
            out.add(new CardHours(shown, group, hours.scale() < 0 ? hours.setScale(0) : hours));
        });
        out.sort(Comparator.comparing(CardHours::key));
        return out;
    }

    private static Map<String, String> firstSpelling(Map<String, String> kept, Map<String, String> offered) {
        String a = kept.get(Dimension.MODEL.label());
        String b = offered.get(Dimension.MODEL.label());
        return a != null && b != null && b.compareTo(a) < 0 ? offered : kept;
    }
}
