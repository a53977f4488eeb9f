package io.gpumeter.ledger.demand.service;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.ledger.demand.domain.Demand;
import io.gpumeter.ledger.demand.domain.ModelTie;
import io.gpumeter.ledger.demand.domain.PendingHours;
import io.gpumeter.ledger.demand.domain.QueueWaitPeaks;
import io.gpumeter.ledger.demand.repository.PeaksRepository.Flavors;
import io.gpumeter.ledger.demand.repository.PeaksRepository.PendingPod;
import io.gpumeter.ledger.demand.repository.PeaksRepository.Wait;
import io.gpumeter.ledger.demand.repository.PeaksRepository;
import io.gpumeter.ledger.triage.pending.WaitFactsRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The governance peaks per model: the daily p95 of queue waits and the GPUs pods waited for hour by hour, each wait
 * tied to the model it was for ({@link ModelTie}) or to none.
 */
@ApplicationScoped
public class PeaksService {

    private final PeaksRepository peaks;
    private final WaitFactsRepository views;

    public PeaksService(PeaksRepository peaks, WaitFactsRepository views) {
        this.peaks = peaks;
        this.views = views;
    }

    /** What the peaks are drawn from: pods' waits to be placed with the views of those never placed, queue waits, flavors. */
    public record Facts(List<PendingPod> pending, List<Wait> waits, Flavors flavors, Map<String, PodStatusFact> views) {
    }

    /**
     * The peaks' reads over [window start, {@code cap}), cluster or all; the three reads depend on none of each other
     * and are asked for at once (the views only wait for the pods they are of).
     */
    public Uni<Facts> facts(TimeWindow window, Instant cap, String cluster) {
        Uni<Map.Entry<List<PendingPod>, Map<String, PodStatusFact>>> pending = peaks.pendingPods(window, cap, cluster)
                .chain(p -> views.podViews(unplaced(p), cap).map(v -> Map.entry(p, v)));
        return Uni.combine().all().unis(pending, peaks.waits(window, cluster), peaks.flavors(cluster)).asTuple()
                .map(t -> new Facts(t.getItem1().getKey(), t.getItem2(), t.getItem3(), t.getItem1().getValue()));
    }

    /**
     * @param models    the canonical models the shapes name, each with its reported spellings (null for none): every
     *                  one of them has a peak, waited for or not
     */
    public List<Demand.Peak> peaks(TimeWindow window, Instant cap, ZoneId zone, Map<String, Set<String>> models, Facts facts) {
        return peaks(window, cap, zone, models, facts.pending(), facts.waits(), facts.flavors(), facts.views());
    }

    /** Pods that never held a unit: only their placement or queue can tie them to a model. */
    private static List<String[]> unplaced(List<PendingPod> pending) {
        return pending.stream().filter(p -> empty(p.heldModels())).map(p -> new String[]{p.cluster(), p.uid()}).toList();
    }

    private static List<Demand.Peak> peaks(TimeWindow window, Instant cap, ZoneId zone, Map<String, Set<String>> models,
                                           List<PendingPod> pending, List<Wait> waits, Flavors flavors,
                                           Map<String, PodStatusFact> views) {
        Map<String, Set<String>> spellings = new HashMap<>();
        models.forEach((m, s) -> spellings.computeIfAbsent(m, k -> new TreeSet<>()).addAll(s));
        Map<String, List<PendingHours.Wait>> pendingByModel = new HashMap<>();
        Map<String, Set<String>> podsByModel = new HashMap<>();
        for (PendingPod p : pending) {
            String model;
            if (!empty(p.heldModels())) {
                model = held(p.heldModels(), spellings);
            } else {
                PodStatusFact view = views.get(p.cluster() + "|" + p.uid());
                model = view == null ? null : ModelTie.ofPlacement(view.placement());
                if (model == null && view != null && view.queueName() != null) {
                    model = tie(products(flavors, p.cluster(), flavors.flavorsByLocalQueue()
                            .get(p.cluster() + "|" + view.namespace() + "|" + view.queueName())));
                }
            }
            pendingByModel.computeIfAbsent(model, m -> new ArrayList<>()).add(new PendingHours.Wait(p.gpus(), p.from(), p.to()));
            podsByModel.computeIfAbsent(model, m -> new HashSet<>()).add(p.cluster() + "|" + p.uid());
        }
        Map<String, SortedMap<String, List<Long>>> waitsByModel = new HashMap<>();
        for (Wait w : waits) {
            String model = waitModel(w, flavors, spellings);
            waitsByModel.computeIfAbsent(model, m -> new TreeMap<>())
                    .computeIfAbsent(w.admittedAt().atZone(zone).toLocalDate().toString(), d -> new ArrayList<>()).add(w.waitMillis());
        }
        Set<String> all = new HashSet<>(models.keySet());
        all.addAll(pendingByModel.keySet());
        all.addAll(waitsByModel.keySet());
        List<PendingHours.Hour> hours = PendingHours.over(window.start(), cap, zone);
        List<Demand.Peak> out = new ArrayList<>();
        for (String model : all) {
            out.add(new Demand.Peak(model, List.copyOf(spellings.getOrDefault(model, new TreeSet<>())),
                    QueueWaitPeaks.of(waitsByModel.getOrDefault(model, new TreeMap<>())),
                    PendingHours.peak(hours, pendingByModel.getOrDefault(model, List.of()),
                            podsByModel.getOrDefault(model, Set.of()).size())));
        }
        out.sort(Comparator.comparing(Demand.Peak::model, Comparator.nullsLast(Comparator.naturalOrder())));
        return out;
    }

    /** A wait's model: the cards it then held, else the flavors Kueue gave it, else those its LocalQueue offers. */
    private static String waitModel(Wait w, Flavors flavors, Map<String, Set<String>> spellings) {
        if (!empty(w.heldModels())) {
            return held(w.heldModels(), spellings);
        }
        if (!"KUEUE".equals(w.source())) {
            return null;
        }
        List<String> given = empty(w.flavors()) ? flavors.flavorsByLocalQueue()
                .get(w.cluster() + "|" + w.namespace() + "|" + w.localQueue()) : List.of(w.flavors());
        return tie(products(flavors, w.cluster(), given));
    }

    /** The product labels of these flavors (null for a flavor naming none or unknown); null for no flavors. */
    private static List<String> products(Flavors flavors, String cluster, List<String> names) {
        if (names == null || names.isEmpty()) {
            return null;
        }
        List<String> out = new ArrayList<>();
        names.forEach(f -> out.add(flavors.productByFlavor().get(cluster + "|" + f)));
        return out;
    }

    /** The one model of the cards held, its spellings noted; null when they were of several. */
    private static String held(String[] names, Map<String, Set<String>> spellings) {
        String model = ModelTie.one(List.of(names));
        if (model != null) {
            spellings.computeIfAbsent(model, k -> new TreeSet<>()).addAll(List.of(names));
        }
        return model;
    }

    /** The one model of these product labels; null when they name none or several. */
    private static String tie(List<String> products) {
        return products == null ? null : ModelTie.one(products);
    }

    private static boolean empty(String[] a) {
        return a == null || a.length == 0;
    }
}
