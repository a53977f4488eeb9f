package io.gpumeter.ledger.service;

import io.gpumeter.common.fact.RegisteredGpu;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.common.problem.Params;
import io.gpumeter.ledger.config.LedgerConfig;
import io.gpumeter.ledger.domain.CardState;
import io.gpumeter.ledger.domain.Fragmentation;
import io.gpumeter.ledger.domain.FragmentationProbe;
import io.gpumeter.ledger.domain.FragmentationReport;
import io.gpumeter.ledger.domain.FragmentationSeries;
import io.gpumeter.ledger.domain.HeldUnit;
import io.gpumeter.ledger.domain.MigProfile;
import io.gpumeter.ledger.domain.NodeInventory;
import io.gpumeter.ledger.domain.NormalizationPolicy;
import io.gpumeter.ledger.domain.ProbeCard;
import io.gpumeter.ledger.domain.ShapeMix;
import io.gpumeter.ledger.domain.UnitKind;
import io.gpumeter.ledger.repository.FragmentationRepository;
import io.gpumeter.ledger.repository.FragmentationRepository.NodeAt;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

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
    private static final String GPU_COUNT = "nvidia.com/gpu.count";
    private static final int DEFAULT_CORES = 100;

    private final FragmentationRepository repository;
    private final NormalizationPolicy policy;
    private final ShapeMix mix;
    private final List<MigProfile> migProfiles;
    private final List<String> poolLabels;

    public FragmentationService(FragmentationRepository repository, NormalizationPolicy policy, LedgerConfig config) {
        this.repository = repository;
        this.policy = policy;
        this.mix = ShapeMix.parse(config.fragmentation().shapeMix());
        this.migProfiles = config.fragmentation().migProfiles().stream().map(MigProfile::parse).toList();
        this.poolLabels = List.copyOf(config.fragmentation().poolLabels());
    }

    public Uni<FragmentationReport> at(Instant at, String shapes, String groupBy, String cluster) {
        ShapeMix selected = shapes(shapes);
        String group = groupBy(groupBy);
        String filter = Windows.cluster(cluster);
        return probe(at, selected, group, filter).map(groups -> new FragmentationReport(at, group, filter, selected.sizes(),
                profileNames(), groups));
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
        return Multi.createFrom().iterable(instants)
                .onItem().transformToUniAndConcatenate(t -> probe(t, selected, group, filter)
                        .map(groups -> new FragmentationSeries.Point(t, groups)))
                .collect().asList()
                .map(points -> new FragmentationSeries(from, to, step.toString(), group, filter, selected.sizes(),
                        profileNames(), points));
    }

    /** Probes the cards at one instant; the current shape mix serves the fleet gauges too. */
    public Uni<List<Fragmentation>> probe(Instant at, ShapeMix shapes, String groupBy, String cluster) {
        FragmentationProbe probe = new FragmentationProbe(shapes, migProfiles);
        return repository.nodes(at, cluster).chain(nodes -> repository.held(at, cluster).map(units -> {
            List<CardState> states = probe.place(cards(nodes, units), units);
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

    public ShapeMix configuredMix() {
        return mix;
    }

    /**
     * The cards of each node: those HAMi registered (with its memory, cores and slots), else as many stand-ins as
     * GPU feature discovery counts. A card is a MIG card when its node runs a MIG strategy or a MIG unit names it.
     */
    private List<ProbeCard> cards(List<NodeAt> nodes, List<HeldUnit> units) {
        Set<String> migNamed = units.stream().filter(u -> u.kind() == UnitKind.MIG && u.gpuUuid() != null)
                .map(u -> u.cluster() + "/" + u.gpuUuid()).collect(Collectors.toSet());
        List<ProbeCard> cards = new ArrayList<>();
        for (NodeAt at : nodes) {
            NodeInventory node = new NodeInventory(at.node().name(), at.node().labels(), at.node().gpus());
            String strategy = node.labels().getOrDefault(NodeInventory.MIG_STRATEGY, "");
            boolean migNode = "single".equalsIgnoreCase(strategy) || "mixed".equalsIgnoreCase(strategy);
            Optional<MigProfile> fixed = node.singleStrategyProfile();
            String pool = pool(node);
            List<RegisteredGpu> gpus = node.gpus().stream().filter(g -> g.uuid() != null && !g.uuid().isBlank()).toList();
            if (gpus.isEmpty()) {
                gpus = standIns(node);
            }
            for (RegisteredGpu g : gpus) {
                String model = g.model() == null || g.model().isBlank() ? node.model() : g.model();
                boolean mig = migNode || migNamed.contains(at.cluster() + "/" + g.uuid());
                Long memory = g.memoryMib() > 0 ? Long.valueOf(g.memoryMib()) : node.cardMemoryMib(g.uuid());
                if (memory == null) {
                    memory = policy.defaultCardMemoryMib();
                }
                if (memory == null && !mig) {
                    continue;
                }
                ProbeCard.MigLayout layout = mig ? new ProbeCard.MigLayout(slices(model), fixed.orElse(null)) : null;
                cards.add(new ProbeCard(at.cluster(), node.name(), pool, g.uuid(), memory == null ? 0 : memory,
                        g.cores() > 0 ? g.cores() : DEFAULT_CORES, Math.max(0, g.splitCount()), node.replicas(), layout));
            }
        }
        return cards;
    }

    /** Cards a node counts (nvidia.com/gpu.count) but no registration names; a unit held there names none of them. */
    private static List<RegisteredGpu> standIns(NodeInventory node) {
        long count;
        try {
            count = Long.parseLong(node.labels().getOrDefault(GPU_COUNT, "0").trim());
        } catch (NumberFormatException e) {
            count = 0;
        }
        List<RegisteredGpu> out = new ArrayList<>();
        Long memory = node.cardMemoryMib(null);
        for (int i = 0; i < count; i++) {
            out.add(new RegisteredGpu(node.name() + "#" + i, node.model(), memory == null ? 0 : memory, 0, 0, null, null));
        }
        return out;
    }

    private int slices(String model) {
        return policy.migSlicesOf(model);
    }

    private String pool(NodeInventory node) {
        for (String label : poolLabels) {
            String value = node.labels().get(label);
            if (value != null && !value.isBlank()) {
                return value;
            }
        }
        String model = node.model();
        return model == null ? "unknown" : model;
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
