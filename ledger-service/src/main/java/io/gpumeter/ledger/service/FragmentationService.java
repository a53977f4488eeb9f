package io.gpumeter.ledger.service;

import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.common.problem.Params;
import io.gpumeter.ledger.allocation.domain.NormalizationPolicy;
import io.gpumeter.ledger.config.LedgerConfig;
import io.gpumeter.ledger.fragmentation.domain.CardState;
import io.gpumeter.ledger.fragmentation.domain.Fragmentation;
import io.gpumeter.ledger.fragmentation.domain.FragmentationProbe;
import io.gpumeter.ledger.fragmentation.domain.FragmentationReport;
import io.gpumeter.ledger.fragmentation.domain.FragmentationSeries;
import io.gpumeter.ledger.fragmentation.domain.RequestRoom;
import io.gpumeter.ledger.fragmentation.domain.ShapeMix;
import io.gpumeter.ledger.inventory.domain.InventoryStart;
import io.gpumeter.ledger.inventory.domain.MigProfile;
import io.gpumeter.ledger.inventory.domain.NodePools;
import io.gpumeter.ledger.repository.FragmentationRepository.FirstSighting;
import io.gpumeter.ledger.repository.FragmentationRepository;
import io.quarkus.runtime.Startup;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Checklist 6: the share of free GPU memory and MIG slices that typical requests cannot use, per node pool or fleet-wide. */
@Startup // a shape mix or MIG profile that does not parse stops the start, not the first request
@ApplicationScoped
public class FragmentationService {

    /** A series probes at most this many instants per request. */
    static final int MAX_POINTS = 500;
    static final Duration MIN_STEP = Duration.ofMinutes(1);
    static final String FLEET = "fleet";
    static final String POOL = "pool";
    /** Per cluster, for the gauges only. */
    static final String CLUSTER = "cluster";

    private final FragmentationRepository repository;
    private final ShapeMix mix;
    private final List<MigProfile> migProfiles;
    private final ProbeCards cards;
    private final RequestShapes shapes;

    public FragmentationService(FragmentationRepository repository, NormalizationPolicy policy, LedgerConfig config) {
        this.repository = repository;
        this.mix = ShapeMix.parse(config.fragmentation().shapeMix());
        this.migProfiles = config.fragmentation().migProfiles().stream().map(MigProfile::parse).toList();
        this.cards = new ProbeCards(policy, new NodePools(config.fragmentation().poolLabels()));
        this.shapes = new RequestShapes(migProfiles);
    }

    public Uni<FragmentationReport> at(Instant at, String shapes, String groupBy, String cluster) {
        ShapeMix selected = shapes(shapes);
        String group = groupBy(groupBy);
        String filter = Windows.cluster(cluster);
        return probe(at, selected, group, filter, firstSightings(filter))
                .map(groups -> new FragmentationReport(at, group, filter, selected.sizes(), profileNames(), groups));
    }

    public Uni<FragmentationSeries> series(Instant from, Instant to, Duration step, String shapes, String groupBy,
                                           String cluster) {
        Params.window(from, to);
        if (step.compareTo(MIN_STEP) < 0) {
            throw ApiProblem.badRequest("step", "step must be at least one minute, got " + step);
        }
        if (Duration.between(from, to).dividedBy(step) >= MAX_POINTS) {
            throw ApiProblem.badRequest("step", "a series has at most " + MAX_POINTS
                    + " points; use a larger step or a shorter window");
        }
        ShapeMix selected = shapes(shapes);
        String group = groupBy(groupBy);
        String filter = Windows.cluster(cluster);
        List<Instant> instants = new ArrayList<>();
        for (Instant t = from; t.isBefore(to); t = t.plus(step)) {
            instants.add(t);
        }
        Uni<List<FirstSighting>> firsts = firstSightings(filter).memoize().indefinitely();
        return Multi.createFrom().iterable(instants)
                .onItem().transformToUniAndConcatenate(t -> probe(t, selected, group, filter, firsts)
                        .map(groups -> new FragmentationSeries.Point(t, groups)))
                .collect().asList()
                .map(points -> new FragmentationSeries(from, to, step.toString(), group, filter, selected.sizes(),
                        profileNames(), points));
    }

    /** Probes the cards at one instant; the current shape mix serves the fleet gauges too. */
    public Uni<List<Fragmentation>> probe(Instant at, ShapeMix shapes, String groupBy, String cluster) {
        return probe(at, shapes, groupBy, cluster, firstSightings(cluster));
    }

    /**
     * The cards in the inventory at {@code at} (InventoryStart), each with how many units of each request shape it
     * offers ({@link RequestShapes}) it holds when empty and how many more fit once the units held then are placed as
     * this read places them.
     */
    public Uni<List<RequestRoom>> rooms(Instant at, String cluster) {
        FragmentationProbe probe = new FragmentationProbe(mix, migProfiles);
        return InventoryAt.read(repository, at, cluster, firstSightings(cluster)).chain(inventory ->
                repository.held(at, cluster).map(units -> {
                    Map<String, Map<String, String>> labels = new HashMap<>();
                    inventory.nodes().forEach(n -> labels.put(n.cluster() + "/" + n.node().name(), n.node().labels()));
                    return probe.rooms(cards.of(inventory.nodes(), units, inventory.slices()), units,
                            card -> shapes.requests(card, labels.getOrDefault(card.cluster() + "/" + card.node(), Map.of())));
                }));
    }

    private Uni<List<Fragmentation>> probe(Instant at, ShapeMix shapes, String groupBy, String cluster,
                                           Uni<List<FirstSighting>> firsts) {
        FragmentationProbe probe = new FragmentationProbe(shapes, migProfiles);
        return InventoryAt.read(repository, at, cluster, firsts).chain(inventory ->
                repository.held(at, cluster).map(units -> {
            List<CardState> states = probe.place(cards.of(inventory.nodes(), units, inventory.slices()), units);
            Map<String, Map<String, String>> groups = new TreeMap<>();
            Map<String, List<CardState>> members = new LinkedHashMap<>();
            for (CardState s : states) {
                Map<String, String> values = new LinkedHashMap<>();
                if (POOL.equals(groupBy) || CLUSTER.equals(groupBy)) {
                    values.put("cluster", s.card().cluster());
                }
                if (POOL.equals(groupBy)) {
                    values.put("pool", s.card().pool());
                }
                String key = values.isEmpty() ? FLEET : String.join("/", values.values());
                groups.putIfAbsent(key, values);
                members.computeIfAbsent(key, k -> new ArrayList<>()).add(s);
            }
            return groups.entrySet().stream().map(e -> probe.measure(e.getKey(), e.getValue(), members.get(e.getKey()))).toList();
        }));
    }

    private Uni<List<FirstSighting>> firstSightings(String cluster) {
        return repository.firstSightings(cluster, InventoryStart.WITH_FIRST_SIGHTING);
    }

    public ShapeMix configuredMix() {
        return mix;
    }

    private List<String> profileNames() {
        return migProfiles.stream().map(MigProfile::raw).toList();
    }

    private ShapeMix shapes(String text) {
        if (text == null || text.isBlank()) {
            return mix;
        }
        List<Integer> sizes = new ArrayList<>();
        for (String part : text.split(",", -1)) {
            int size;
            try {
                size = Integer.parseInt(part.trim());
            } catch (NumberFormatException e) {
                throw ApiProblem.badRequest("shapes",
                        "shapes must be comma-separated whole GiB such as 10,20,30, got '" + text + "'");
            }
            if (size < 1 || size > ShapeMix.MAX_GIB) {
                throw ApiProblem.badRequest("shapes", "each shape must be 1 to " + ShapeMix.MAX_GIB + " GiB, got " + size);
            }
            if (sizes.contains(size)) {
                throw ApiProblem.badRequest("shapes", "shape " + size + " appears twice");
            }
            sizes.add(size);
        }
        if (sizes.size() > ShapeMix.MAX_SHAPES) {
            throw ApiProblem.badRequest("shapes", "at most " + ShapeMix.MAX_SHAPES + " shapes, got " + sizes.size());
        }
        return mix.select(sizes);
    }

    private static String groupBy(String text) {
        return Params.oneOf("groupBy", text == null || text.isBlank() ? FLEET : text, POOL, FLEET);
    }
}
