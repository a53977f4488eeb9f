package io.gpumeter.ledger.service;

import io.gpumeter.ledger.fragmentation.domain.RequestRoom;
import io.gpumeter.ledger.hours.domain.TimeBucket;
import io.gpumeter.ledger.service.CardPresence.Presence;
import io.gpumeter.ledger.service.SupplyTimeline.ModelTally;
import io.gpumeter.ledger.supply.domain.Supply;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/** Puts the supply answer together per model from the timeline's tallies and the usable cards' shapes. */
final class SupplyModels {

    /** The model of cards no source names one for. */
    static final String UNKNOWN = "unknown";
    private static final BigDecimal SECONDS_PER_HOUR = BigDecimal.valueOf(3600);
    /** Hours and ratios to 12 decimals, half-even, as capacity's card-hours. */
    private static final int SCALE = 12;

    private SupplyModels() {
    }

    static List<Supply.Model> of(Instant from, Instant end, List<TimeBucket> days, List<Presence> presences,
                                 SupplyTimeline timeline, List<RequestRoom> usable) {
        Map<String, Set<String>> spellings = new HashMap<>();
        Map<String, Instant> since = new HashMap<>();
        for (Presence p : presences) {
            String key = SupplyTimeline.key(p.model());
            since.merge(key, p.start(), (a, b) -> a.isBefore(b) ? a : b);
            if (p.model() != null && p.start().isBefore(end) && (p.end() == null || p.end().isAfter(from))) {
                spellings.computeIfAbsent(key, k -> new TreeSet<>()).add(p.model());
            }
        }
        Map<String, List<RequestRoom>> rooms = new TreeMap<>();
        for (RequestRoom r : usable) {
            String key = SupplyTimeline.key(r.card().model());
            rooms.computeIfAbsent(key, k -> new ArrayList<>()).add(r);
            if (r.card().model() != null) {
                spellings.computeIfAbsent(key, k -> new TreeSet<>()).add(r.card().model());
            }
        }
        Set<String> keys = new TreeSet<>(timeline.models.keySet());
        keys.addAll(rooms.keySet());
        List<Supply.Model> out = new ArrayList<>();
        for (String key : keys) {
            ModelTally t = timeline.models.getOrDefault(key, new ModelTally(days.size()));
            String model = key.isEmpty() ? UNKNOWN : key;
            out.add(model(model, List.copyOf(spellings.getOrDefault(key, Set.of())), since.get(key), days, end, t,
                    SupplyShapes.of(rooms.getOrDefault(key, List.of()))));
        }
        out.sort(Comparator.comparing(Supply.Model::model));
        return out;
    }

    private static Supply.Model model(String model, List<String> spellings, Instant since, List<TimeBucket> days,
                                      Instant end, ModelTally t, List<Supply.Shape> shapes) {
        List<Supply.Day> perDay = new ArrayList<>();
        BigDecimal total = BigDecimal.ZERO;
        for (int i = 0; i < days.size(); i++) {
            perDay.add(new Supply.Day(days.get(i).label(), hours(t.card[i]), hours(t.cordoned[i]), hours(t.failed[i]),
                    hours(t.usable[i])));
            total = total.add(t.card[i]);
        }
        int incidents = t.incidents + t.suiteCordons;
        BigDecimal perCardHour = total.signum() == 0 ? null : plain(BigDecimal.valueOf(incidents)
                .multiply(SECONDS_PER_HOUR).divide(total, SCALE, RoundingMode.HALF_EVEN));
        BigDecimal mttr = t.repaired == 0 ? null
                : plain(t.repairSeconds.divide(BigDecimal.valueOf(t.repaired), 3, RoundingMode.HALF_EVEN));
        BigDecimal share = total.signum() == 0 ? null : plain(t.maintenance.divide(total, SCALE, RoundingMode.HALF_EVEN));
        return new Supply.Model(model, spellings, since, perDay,
                new Supply.End(end, t.endCards, t.endCordoned, t.endFailed, t.endUsable), shapes,
                new Supply.Failures(incidents, t.repaired, mttr, perCardHour, t.suiteCordons, hours(t.bySuite)),
                new Supply.Maintenance(t.maintenanceCordons, hours(t.maintenance), share));
    }

    private static BigDecimal hours(BigDecimal seconds) {
        return plain(seconds.divide(SECONDS_PER_HOUR, SCALE, RoundingMode.HALF_EVEN));
    }

    /** Trailing zeros dropped, and never an exponent: 384, not 3.84E+2. */
    private static BigDecimal plain(BigDecimal value) {
        BigDecimal stripped = value.stripTrailingZeros();
        return stripped.scale() < 0 ? stripped.setScale(0) : stripped;
    }
}
