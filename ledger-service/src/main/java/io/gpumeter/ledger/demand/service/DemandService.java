package io.gpumeter.ledger.demand.service;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.common.fact.ClusterName;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.common.problem.Params;
import io.gpumeter.ledger.config.WorkloadClassConfig;
import io.gpumeter.ledger.demand.domain.ClassRule;
import io.gpumeter.ledger.demand.domain.Demand;
import io.gpumeter.ledger.demand.domain.ShapeBook;
import io.gpumeter.ledger.demand.domain.WorkloadClassifier;
import io.gpumeter.ledger.demand.repository.DemandRepository.Held;
import io.gpumeter.ledger.demand.repository.DemandRepository;
import io.gpumeter.ledger.hours.domain.GroupDimension;
import io.gpumeter.ledger.hours.domain.TimeBucket;
import io.gpumeter.ledger.inventory.domain.GpuModels;
import io.quarkus.runtime.Startup;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The demand read: allocated hours by model, workload class, request shape and serving workload, day by day, and the
 * models' governance peaks.
 */
// Built at start-up, so that a bad workload-class rule stops the service with the property's name.
@Startup
@ApplicationScoped
public class DemandService {

    /** Bounds one query's work, as for GPU-hours and capacity. */
    static final Duration MAX_WINDOW = Duration.ofDays(400);
    static final String RULES = "gpumeter.ledger.workload-classes.rules";

    private final DemandRepository repository;
    private final PeaksService peaks;
    private final Clock clock;
    private final WorkloadClassifier classifier;

    public DemandService(DemandRepository repository, PeaksService peaks, Clock clock, WorkloadClassConfig config) {
        this.repository = repository;
        this.peaks = peaks;
        this.clock = clock;
        this.classifier = new WorkloadClassifier(rules(config));
    }

    /** The configured rules in index order; a bad one names its property. */
    static List<ClassRule> rules(WorkloadClassConfig config) {
        List<ClassRule> rules = new ArrayList<>();
        for (int i = 0; i < config.rules().size(); i++) {
            WorkloadClassConfig.Rule r = config.rules().get(i);
            try {
                rules.add(ClassRule.parse(r.owner().orElse(null), r.label().orElse(null), r.workloadClass()));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(RULES + "[" + i + "]." + e.getMessage(), e);
            }
        }
        return rules;
    }

    /**
     * Over [from, to), counted up to the earlier of {@code to} and now, in {@code zone}'s days and hours; cluster
     * null means every cluster.
     */
    public Uni<Demand> demand(Instant from, Instant to, ZoneId zone, String cluster) {
        TimeWindow window = Params.window(from, to, MAX_WINDOW);
        String c = cluster == null ? null : ClusterName.require("cluster", cluster);
        Instant now = clock.instant();
        Instant cap = now.isBefore(window.end()) ? now : window.end();
        List<TimeBucket> days = TimeBucket.over(window, GroupDimension.DAY, zone);
        return repository.held(window, cap, c, days).chain(held -> classified(held)
                .chain(book -> {
                    ShapeBook shapes = new ShapeBook(days.stream().map(TimeBucket::label).toList());
                    book.forEach(e -> shapes.add(e.getKey(), e.getValue()));
                    return peaks.peaks(window, cap, c, zone, models(held))
                            .map(p -> new Demand(window.start(), window.end(), zoneName(zone), c, shapes.shapes(), p));
                }));
    }

    /** Each pod's hours with its shape and its class, the pod's newest version deciding the class. */
    private Uni<List<Map.Entry<ShapeBook.PodHours, WorkloadClassifier.Classification>>> classified(List<Held> held) {
        Set<String> pods = new LinkedHashSet<>();
        Set<String> draPods = new LinkedHashSet<>();
        for (Held h : held) {
            pods.add(h.cluster() + "|" + h.podUid());
            if (h.dra()) {
                draPods.add(h.cluster() + "|" + h.podUid());
            }
        }
        return repository.newestVersions(pods).chain(versions -> repository.draClasses(draPods).map(classes -> {
            Map<String, WorkloadClassifier.Classification> byPod = new HashMap<>();
            List<Map.Entry<ShapeBook.PodHours, WorkloadClassifier.Classification>> out = new ArrayList<>();
            for (Held h : held) {
                String key = h.cluster() + "|" + h.podUid();
                WorkloadClassifier.Classification c = byPod.computeIfAbsent(key, k -> {
                    PodFact pod = versions.get(k);
                    return pod == null ? classifier.classify(null, null, null, Map.of())
                            : classifier.classify(pod.namespace(), pod.name(), pod.owner(), pod.labels());
                });
                String[] shape = ShapeBook.shapeOf(h.unitKind(), h.migProfile(), h.dra(), classes.get(key));
                out.add(Map.entry(new ShapeBook.PodHours(key, h.model(), shape[0], shape[1], h.day(), h.hours()), c));
            }
            return out;
        }));
    }

    /** The zone as the answer names it: UTC by that name rather than "Z". */
    static String zoneName(ZoneId zone) {
        return zone.equals(ZoneOffset.UTC) ? "UTC" : zone.getId();
    }

    /** The canonical models held, each with the names it was reported by. */
    private static Map<String, Set<String>> models(List<Held> held) {
        Map<String, Set<String>> out = new HashMap<>();
        held.forEach(h -> out.computeIfAbsent(GpuModels.canonical(h.model()), m -> new TreeSet<>())
                .addAll(h.model() == null ? List.of() : List.of(h.model())));
        return out;
    }
}
