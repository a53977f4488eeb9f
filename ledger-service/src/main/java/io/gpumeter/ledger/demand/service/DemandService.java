package io.gpumeter.ledger.demand.service;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.common.fact.ClusterName;
import io.gpumeter.common.problem.Params;
import io.gpumeter.ledger.config.WorkloadClassConfig;
import io.gpumeter.ledger.demand.domain.ClassRule;
import io.gpumeter.ledger.demand.domain.Demand;
import io.gpumeter.ledger.demand.domain.PodClasses;
import io.gpumeter.ledger.demand.domain.ShapeBook;
import io.gpumeter.ledger.demand.domain.WorkloadClassifier;
import io.gpumeter.ledger.demand.repository.DemandRepository.ClassHours;
import io.gpumeter.ledger.demand.repository.DemandRepository.HeldUnits;
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
     * null means every cluster. The shapes' reads and the peaks' reads depend on none of each other and run at once.
     */
    public Uni<Demand> demand(Instant from, Instant to, ZoneId zone, String cluster) {
        TimeWindow window = Params.window(from, to, MAX_WINDOW);
        String c = cluster == null ? null : ClusterName.require("cluster", cluster);
        Instant now = clock.instant();
        Instant cap = now.isBefore(window.end()) ? now : window.end();
        List<TimeBucket> days = TimeBucket.over(window, GroupDimension.DAY, zone);
        Uni<Map.Entry<List<HeldUnits>, ShapeBook>> shapes = repository.heldUnits(window, cap, c)
                .chain(held -> shapes(held, window, cap, c, days).map(book -> Map.entry(held, book)));
        return Uni.combine().all().unis(shapes, peaks.facts(window, cap, c)).asTuple()
                .map(t -> new Demand(window.start(), window.end(), zoneName(zone), c, t.getItem1().getValue().shapes(),
                        peaks.peaks(window, cap, zone, models(t.getItem1().getKey()), t.getItem2())));
    }

    /**
     * The held units' hours by shape: each pod is classified by its newest version (and a DRA pod's device class),
     * pods of one class and device class are one class of the hours' read, and the book counts each shape's pods from
     * the units they held.
     */
    private Uni<ShapeBook> shapes(List<HeldUnits> held, TimeWindow window, Instant cap, String cluster, List<TimeBucket> days) {
        Set<String> pods = new LinkedHashSet<>();
        Set<String> draPods = new LinkedHashSet<>();
        for (HeldUnits h : held) {
            pods.add(h.pod());
            if (h.dra()) {
                draPods.add(h.pod());
            }
        }
        return Uni.combine().all().unis(repository.identities(pods), repository.draClasses(draPods)).asTuple()
                .chain(t -> {
                    PodClasses classes = new PodClasses(classifier, t.getItem1(), t.getItem2());
                    pods.forEach(classes::classify);
                    ShapeBook book = new ShapeBook(days.stream().map(TimeBucket::label).toList());
                    for (HeldUnits h : held) {
                        PodClasses.PodClass pc = classes.of(h.pod());
                        book.addPod(h.model(), ShapeBook.shapeOf(h.unitKind(), h.migProfile(), h.dra(), pc.draClass()),
                                pc.classification(), h.pod());
                    }
                    return repository.classHours(window, cap, cluster, classes.indexByPod(), days).map(rows -> {
                        for (ClassHours r : rows) {
                            PodClasses.PodClass pc = classes.byIndex(r.classIndex());
                            book.addHours(r.model(), ShapeBook.shapeOf(r.unitKind(), r.migProfile(), r.dra(), pc.draClass()),
                                    pc.classification(), r.day(), r.hours());
                        }
                        return book;
                    });
                });
    }

    /** The zone as the answer names it: UTC by that name rather than "Z". */
    static String zoneName(ZoneId zone) {
        return zone.equals(ZoneOffset.UTC) ? "UTC" : zone.getId();
    }

    /** The canonical models held, each with the names it was reported by. */
    private static Map<String, Set<String>> models(List<HeldUnits> held) {
        Map<String, Set<String>> out = new HashMap<>();
        held.forEach(h -> out.computeIfAbsent(GpuModels.canonical(h.model()), m -> new TreeSet<>())
                .addAll(h.model() == null ? List.of() : List.of(h.model())));
        return out;
    }
}
