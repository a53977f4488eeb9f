package io.gpumeter.ledger.service;

import io.gpumeter.common.problem.Params;
import io.gpumeter.common.problem.Window;
import io.gpumeter.ledger.allocation.domain.NormalizationPolicy;
import io.gpumeter.ledger.config.LedgerConfig;
import io.gpumeter.ledger.fleet.FleetLayout;
import io.gpumeter.ledger.fragmentation.domain.HeldUnit;
import io.gpumeter.ledger.inventory.domain.GpuModels;
import io.gpumeter.ledger.inventory.domain.InventoryStart;
import io.gpumeter.ledger.inventory.domain.NodePools;
import io.gpumeter.ledger.occupancy.domain.Occupant;
import io.gpumeter.ledger.repository.AllocationRepository;
import io.gpumeter.ledger.repository.FragmentationRepository;
import io.gpumeter.ledger.service.LayoutCards.KnownNode;
import io.gpumeter.ledger.service.LayoutCards.Listed;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Q1 as a picture of the fleet: the inventory's cards at an instant ({@link InventoryAt}, as the fragmentation probe
 * reads it), who held each ({@link LayoutCards}), a page of the nodes and the cards per pool or model over them all.
 */
@ApplicationScoped
public class FleetLayoutService {

    static final String POOL = "pool";
    static final String MODEL = "model";

    private final FragmentationRepository inventory;
    private final AllocationRepository allocations;
    private final LayoutCards cards;

    public FleetLayoutService(FragmentationRepository inventory, AllocationRepository allocations,
                              NormalizationPolicy policy, LedgerConfig config) {
        this.inventory = inventory;
        this.allocations = allocations;
        this.cards = new LayoutCards(policy, new NodePools(config.fragmentation().poolLabels()));
    }

    /**
     * @param node    one node's layout (of any cluster unless {@code cluster} is given); null for every node
     * @param groupBy {@code pool} (default) or {@code model}
     * @param group   list only the nodes of this group (its key, {@code <cluster>/<pool or model>}): the drill-down
     *                from a group's row; null for every node. The groups still count every node.
     * @param page    the nodes to list; the groups count every node
     */
    public Uni<FleetLayout> at(Instant at, String cluster, String node, String groupBy, String group, Window page) {
        String by = Params.oneOf("groupBy", groupBy == null ? POOL : groupBy, POOL, MODEL);
        String filter = Windows.cluster(cluster);
        return InventoryAt.read(inventory, at, filter, inventory.firstSightings(filter, InventoryStart.WITH_FIRST_SIGHTING))
                .chain(known -> allocations.occupantsAt(at, filter, node, null, null).map(held -> {
                    var nodes = known.nodes().stream().filter(n -> node == null || node.equals(n.node().name())).toList();
                    // the order the fragmentation probe reads units in, which decides where unnamed ones go
                    List<Occupant> occupants = held.stream().sorted(Comparator.comparing(Occupant::cluster)
                            .thenComparing(Occupant::node).thenComparing(Occupant::since, Comparator.nullsFirst(Comparator.naturalOrder()))
                            .thenComparing(Occupant::podUid, Comparator.nullsFirst(Comparator.naturalOrder()))).toList();
                    LayoutCards.Placed placed = cards.place(nodes, known.slices(), occupants.stream().map(FleetLayoutService::unit).toList());
                    return layout(at, by, group, page, occupants, placed);
                }));
    }

    private static HeldUnit unit(Occupant o) {
        Occupant.Unit u = o.unit();
        return new HeldUnit(o.cluster(), o.node(), o.gpuUuid(), u.kind(), u.migProfile(), u.cores() == null ? 0 : u.cores(),
                u.memoryMiB() == null ? 0 : u.memoryMiB());
    }

    /** One node as it is assembled. */
    private static final class NodeParts {
        final String cluster;
        final String name;
        final Map<Listed, List<Occupant>> cards = new LinkedHashMap<>();
        final List<Occupant> unplaced = new ArrayList<>();

        NodeParts(String cluster, String name) {
            this.cluster = cluster;
            this.name = name;
        }
    }

    static FleetLayout layout(Instant at, String groupBy, String group, Window page, List<Occupant> occupants,
                              LayoutCards.Placed placed) {
        Map<String, NodeParts> nodes = new TreeMap<>();
        for (Listed c : placed.cards()) {
            parts(nodes, c.card().cluster(), c.card().node()).cards.put(c, new ArrayList<>());
        }
        for (int i = 0; i < occupants.size(); i++) {
            Occupant o = occupants.get(i);
            Listed on = placed.unitCards().get(i);
            NodeParts n = parts(nodes, o.cluster(), o.node());
            if (on == null) {
                n.unplaced.add(o);
            } else {
                n.cards.get(on).add(o);
            }
        }
        List<FleetLayout.Node> all = nodes.values().stream().map(n -> node(n, placed.known().get(n.cluster + "/" + n.name))).toList();
        List<FleetLayout.Node> listed = group == null ? all : all.stream().filter(n -> groupKeys(n, groupBy).contains(group)).toList();
        int from = Math.min(page.offset(), listed.size());
        int to = page.whole() ? listed.size() : (int) Math.min((long) from + page.limit(), listed.size());
        return new FleetLayout(at, groupBy, groups(all, groupBy), listed.size(), page.offset(), page.limit(),
                listed.subList(from, to));
    }

    private static NodeParts parts(Map<String, NodeParts> nodes, String cluster, String node) {
        // "\u0000" sorts a cluster's nodes before the next cluster's whatever the names
        return nodes.computeIfAbsent(cluster + "\u0000" + node, k -> new NodeParts(cluster, node));
    }

    private static FleetLayout.Node node(NodeParts n, KnownNode known) {
        List<FleetLayout.Card> named = new ArrayList<>();
        List<FleetLayout.Card> counted = new ArrayList<>();
        n.cards.forEach((listed, held) -> (listed.uuid() == null ? counted : named).add(new FleetLayout.Card(listed.uuid(),
                listed.card().model(), listed.source(), sum(held), List.copyOf(held))));
        named.sort(Comparator.comparing(FleetLayout.Card::uuid));
        named.addAll(counted);
        int held = (int) named.stream().filter(c -> !c.occupants().isEmpty()).count();
        BigDecimal fraction = named.stream().map(FleetLayout.Card::heldFraction).reduce(sum(n.unplaced), BigDecimal::add);
        String model = known != null && known.model() != null ? known.model()
                : named.stream().map(FleetLayout.Card::model).filter(m -> m != null).findFirst().orElse(null);
        return new FleetLayout.Node(n.cluster, n.name, known == null ? NodePools.UNKNOWN : known.pool(), model, known != null,
                named.size(), held, named.size() - held, fraction, named, List.copyOf(n.unplaced));
    }

    /** The groups a node's cards count in: its pool's, or each of its cards' models'. */
    private static java.util.Set<String> groupKeys(FleetLayout.Node n, String groupBy) {
        java.util.Set<String> keys = new java.util.HashSet<>();
        n.gpus().forEach(c -> keys.add(n.cluster() + "/" + value(n, c, groupBy)));
        if (!n.unplaced().isEmpty() || n.gpus().isEmpty()) {
            keys.add(n.cluster() + "/" + value(n, null, groupBy));
        }
        return keys;
    }

    private static String value(FleetLayout.Node n, FleetLayout.Card c, String groupBy) {
        return POOL.equals(groupBy) ? n.pool() : model(c != null && c.model() != null ? c.model() : n.model());
    }

    /** Every node's cards per cluster and pool, or per cluster and model (each card by its own model). */
    private static List<FleetLayout.Group> groups(List<FleetLayout.Node> nodes, String groupBy) {
        Map<String, GroupSum> groups = new TreeMap<>();
        for (FleetLayout.Node n : nodes) {
            for (FleetLayout.Card c : n.gpus()) {
                String value = value(n, c, groupBy);
                groups.computeIfAbsent(n.cluster() + "/" + value, k -> new GroupSum(n.cluster(), value)).add(n, c);
            }
            if (!n.unplaced().isEmpty()) {
                String value = value(n, null, groupBy);
                groups.computeIfAbsent(n.cluster() + "/" + value, k -> new GroupSum(n.cluster(), value)).unplaced(n);
            }
        }
        return groups.entrySet().stream().map(e -> e.getValue().group(e.getKey(), groupBy)).toList();
    }

    private static String model(String model) {
        String canonical = GpuModels.canonical(model);
        return canonical == null ? NodePools.UNKNOWN : canonical;
    }

    /** One group's running sums. */
    private static final class GroupSum {
        final String cluster;
        final String value;
        final java.util.Set<String> nodes = new java.util.HashSet<>();
        int cards;
        int held;
        BigDecimal fraction = BigDecimal.ZERO;

        GroupSum(String cluster, String value) {
            this.cluster = cluster;
            this.value = value;
        }

        void add(FleetLayout.Node n, FleetLayout.Card c) {
            nodes.add(n.node());
            cards++;
            held += c.occupants().isEmpty() ? 0 : 1;
            fraction = fraction.add(c.heldFraction());
        }

        void unplaced(FleetLayout.Node n) {
            nodes.add(n.node());
            fraction = fraction.add(sum(n.unplaced()));
        }

        FleetLayout.Group group(String key, String groupBy) {
            Map<String, String> group = new LinkedHashMap<>();
            group.put("cluster", cluster);
            group.put(groupBy, value);
            return new FleetLayout.Group(key, group, nodes.size(), cards, held, cards - held, fraction);
        }
    }

    private static BigDecimal sum(List<Occupant> occupants) {
        return occupants.stream().map(Occupant::fraction).reduce(BigDecimal.ZERO, BigDecimal::add);
    }
}
