package io.gpumeter.ledger.demand.domain;

import io.gpumeter.ledger.inventory.domain.GpuModels;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Groups pods' allocated hours by canonical model, workload class, rule, request shape and serving workload. */
public final class ShapeBook {

    /** One pod's allocated card-equivalent hours on one local day in units of one shape. */
    public record PodHours(String podKey, String model, String shape, String kind, String day, BigDecimal hours) {
    }

    private record Key(String model, String workloadClass, String classRule, String shape, String kind,
                       WorkloadClassifier.Service service) {
    }

    private static final Comparator<String> TEXT = Comparator.nullsLast(Comparator.naturalOrder());
    private static final Comparator<Key> ORDER = Comparator.comparing(Key::model, TEXT)
            .thenComparing(Key::workloadClass).thenComparing(Key::shape)
            .thenComparing(k -> k.service() == null ? null : k.service().namespace(), Comparator.nullsFirst(Comparator.naturalOrder()))
            .thenComparing(k -> k.service() == null ? null : k.service().name(), Comparator.nullsFirst(Comparator.naturalOrder()))
            .thenComparing(Key::classRule);

    private final List<String> days;
    private final Map<Key, Map<String, BigDecimal>> hours = new HashMap<>();
    private final Map<Key, Set<String>> pods = new HashMap<>();

    /** @param days the local days of the window, in order: every group answers each of them */
    public ShapeBook(List<String> days) {
        this.days = List.copyOf(days);
    }

    /**
     * The shape of a unit as the ledger derived it, {@code [shape, kind]}: a DRA device by its class (every DRA
     * unit, whole card or MIG device), a MIG instance by its profile, a HAMi share, a time-sliced replica, a card.
     */
    public static String[] shapeOf(String unitKind, String migProfile, boolean dra, String draClass) {
        if (dra) {
            return new String[]{"dra:" + (draClass == null || draClass.isBlank() ? "unknown" : draClass), "DRA"};
        }
        return switch (unitKind) {
            case "MIG" -> new String[]{"mig-" + (migProfile == null ? "unknown" : migProfile), "MIG"};
            case "VGPU" -> new String[]{"hami", "HAMI"};
            case "SHARED" -> new String[]{"shared", "SHARED"};
            default -> new String[]{"whole", "WHOLE"};
        };
    }

    public void add(PodHours h, WorkloadClassifier.Classification c) {
        Key key = new Key(GpuModels.canonical(h.model()), c.workloadClass().label(), c.rule(), h.shape(), h.kind(), c.service());
        hours.computeIfAbsent(key, k -> new HashMap<>()).merge(h.day(), h.hours(), BigDecimal::add);
        pods.computeIfAbsent(key, k -> new HashSet<>()).add(h.podKey());
    }

    /** Every group, sorted by model (none last), class, shape, service and rule, each with all of the days. */
    public List<Demand.Shape> shapes() {
        List<Key> keys = new ArrayList<>(hours.keySet());
        keys.sort(ORDER);
        List<Demand.Shape> out = new ArrayList<>();
        for (Key k : keys) {
            Map<String, BigDecimal> byDay = hours.get(k);
            List<Demand.Day> series = new ArrayList<>();
            BigDecimal total = BigDecimal.ZERO;
            for (String day : days) {
                BigDecimal h = byDay.getOrDefault(day, BigDecimal.ZERO);
                total = total.add(h);
                series.add(new Demand.Day(day, plain(h)));
            }
            out.add(new Demand.Shape(k.model(), k.workloadClass(), k.classRule(), k.shape(), k.kind(), k.service(),
                    pods.get(k).size(), plain(total), series));
        }
        return out;
    }

    /** Every raw model name seen, by canonical model (null for none). */
    public static Map<String, Set<String>> spellings(List<PodHours> rows) {
        Map<String, Set<String>> out = new LinkedHashMap<>();
        rows.forEach(r -> out.computeIfAbsent(GpuModels.canonical(r.model()), m -> new HashSet<>()).add(r.model()));
        return out;
    }

    static BigDecimal plain(BigDecimal v) {
        return v.signum() == 0 ? BigDecimal.ZERO : v.stripTrailingZeros();
    }
}
