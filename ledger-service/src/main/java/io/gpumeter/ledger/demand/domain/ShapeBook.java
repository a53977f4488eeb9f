package io.gpumeter.ledger.demand.domain;

import io.gpumeter.ledger.inventory.domain.GpuModels;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Groups pods' allocated hours by canonical model, workload class, rule, request shape and serving workload. */
public final class ShapeBook {

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

    /** A pod ({@code cluster|uid}) that held units of this model ({@code [shape, kind]} of {@link #shapeOf}) in the window. */
    public void addPod(String model, String[] shape, WorkloadClassifier.Classification c, String pod) {
        pods.computeIfAbsent(key(model, shape, c), k -> new HashSet<>()).add(pod);
    }

    /** Hours held on one local day in units of this model and shape by pods of this classification. */
    public void addHours(String model, String[] shape, WorkloadClassifier.Classification c, String day, BigDecimal h) {
        hours.computeIfAbsent(key(model, shape, c), k -> new HashMap<>()).merge(day, h, BigDecimal::add);
    }

    private static Key key(String model, String[] shape, WorkloadClassifier.Classification c) {
        return new Key(GpuModels.canonical(model), c.workloadClass().label(), c.rule(), shape[0], shape[1], c.service());
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
                    pods.getOrDefault(k, Set.of()).size(), plain(total), series));
        }
        return out;
    }

    static BigDecimal plain(BigDecimal v) {
        return v.signum() == 0 ? BigDecimal.ZERO : v.stripTrailingZeros();
    }
}
