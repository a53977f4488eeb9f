package io.gpumeter.ledger.service;

import io.gpumeter.common.fact.ResourceSliceFact;
import io.gpumeter.ledger.allocation.domain.NormalizationPolicy;
import io.gpumeter.ledger.allocation.domain.UnitKind;
import io.gpumeter.ledger.fleet.FleetLayout.CardSource;
import io.gpumeter.ledger.fragmentation.domain.FragmentationProbe;
import io.gpumeter.ledger.fragmentation.domain.HeldUnit;
import io.gpumeter.ledger.fragmentation.domain.ProbeCard;
import io.gpumeter.ledger.inventory.domain.NodeInventory;
import io.gpumeter.ledger.inventory.domain.NodePools;
import io.gpumeter.ledger.repository.FragmentationRepository.NodeAt;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The cards of the fleet's layout, and where each held unit sits on them. The cards are the fragmentation probe's
 * ({@link ProbeCards}), a card of unknown memory kept; a card a held unit names that the inventory does not takes the
 * place of one of its node's counted cards, or joins the node when none is left, so that no other unit is put on it;
 * a node the inventory did not know at the instant gets as few cards as its unnamed units need. The units on cards
 * Kubernetes does not name are then placed by the probe's rule ({@link FragmentationProbe#placements}).
 */
final class LayoutCards {

    /**
     * A card of the layout.
     *
     * @param uuid null for a counted card no held unit names
     */
    record Listed(ProbeCard card, String uuid, CardSource source) {
    }

    /** A node the inventory knew at the instant: its pool as the ledger names pools, and its card model. */
    record KnownNode(String pool, String model) {
    }

    /**
     * The cards, for each unit (in the order given) the card it sits on (null when it fits on none), and the nodes the
     * inventory knew by "cluster/node".
     */
    record Placed(List<Listed> cards, List<Listed> unitCards, Map<String, KnownNode> known) {
    }

    private final ProbeCards probeCards;
    private final NormalizationPolicy policy;
    private final NodePools pools;

    LayoutCards(NormalizationPolicy policy, NodePools pools) {
        this.probeCards = ProbeCards.keepingUnmeasured(policy, pools);
        this.policy = policy;
        this.pools = pools;
    }

    /** @param units in the order the probe reads them: by cluster, node, since, pod and unit */
    Placed place(List<NodeAt> nodes, Map<String, List<ResourceSliceFact>> slices, List<HeldUnit> units) {
        Map<String, Listed> cards = new LinkedHashMap<>();
        Map<String, Deque<ProbeCard>> counted = new LinkedHashMap<>();
        List<ProbeCard> probed = probeCards.of(nodes, units, slices);
        Map<String, KnownNode> known = known(nodes, probed);
        for (ProbeCard c : probed) {
            if (c.origin() == ProbeCard.Origin.COUNTED) {
                counted.computeIfAbsent(c.cluster() + "/" + c.node(), k -> new ArrayDeque<>()).add(c);
            } else {
                cards.put(c.cluster() + "/" + c.uuid(), new Listed(c, c.uuid(), source(c.origin())));
            }
        }
        // a unit naming a card the inventory does not list: the card, with the first unit naming it, by node
        Map<String, TreeMap<String, HeldUnit>> namedElsewhere = new LinkedHashMap<>();
        for (HeldUnit u : units) {
            if (u.gpuUuid() != null && !cards.containsKey(u.cluster() + "/" + u.gpuUuid())) {
                namedElsewhere.computeIfAbsent(u.cluster() + "/" + u.node(), k -> new TreeMap<>()).putIfAbsent(u.gpuUuid(), u);
            }
        }
        namedElsewhere.forEach((node, named) -> {
            Deque<ProbeCard> left = counted.getOrDefault(node, new ArrayDeque<>());
            named.forEach((uuid, unit) -> {
                ProbeCard standIn = left.poll();
                ProbeCard card = standIn != null ? renamed(standIn, uuid) : heldOnly(unit, uuid, units, known.get(node));
                cards.putIfAbsent(card.cluster() + "/" + uuid, new Listed(card, uuid,
                        standIn != null ? CardSource.COUNTED : CardSource.HELD));
            });
        });
        counted.values().forEach(left -> left.forEach(c -> cards.put(c.cluster() + "/" + c.uuid(),
                new Listed(c, null, CardSource.COUNTED))));
        return placeOnUnknownNodes(cards, units, known);
    }

    /** Each node's pool and model: its cards' when it has any (a DRA card's model may name its pool), else its own. */
    private Map<String, KnownNode> known(List<NodeAt> nodes, List<ProbeCard> cards) {
        Map<String, KnownNode> known = new LinkedHashMap<>();
        for (ProbeCard c : cards) {
            known.putIfAbsent(c.cluster() + "/" + c.node(), new KnownNode(c.pool(), c.model()));
        }
        for (NodeAt n : nodes) {
            NodeInventory node = new NodeInventory(n.node().name(), n.node().labels(), n.node().gpus());
            known.putIfAbsent(n.cluster() + "/" + node.name(), new KnownNode(pools.of(node, null), node.model()));
        }
        return known;
    }

    /**
     * Places the units; while a unit of a node the inventory did not know fits nowhere, its node gets one more card
     * shaped for it, and the units are placed again.
     */
    private Placed placeOnUnknownNodes(Map<String, Listed> cards, List<HeldUnit> units, Map<String, KnownNode> known) {
        for (int round = 0; ; round++) {
            List<ProbeCard> where = FragmentationProbe.placements(cards.values().stream().map(Listed::card).toList(), units);
            List<Listed> unitCards = new ArrayList<>();
            Map<String, HeldUnit> wanting = new LinkedHashMap<>();
            for (int i = 0; i < units.size(); i++) {
                ProbeCard c = where.get(i);
                HeldUnit u = units.get(i);
                unitCards.add(c == null ? null : cards.get(c.cluster() + "/" + c.uuid()));
                if (c == null && !known.containsKey(u.cluster() + "/" + u.node())) {
                    wanting.putIfAbsent(u.cluster() + "/" + u.node(), u);
                }
            }
            if (wanting.isEmpty() || round >= units.size()) {
                return new Placed(List.copyOf(cards.values()), unitCards, known);
            }
            wanting.forEach((node, unit) -> {
                String standIn = unit.node() + "#held-" + cards.size();
                ProbeCard card = heldOnly(unit, standIn, units, null);
                cards.put(card.cluster() + "/" + standIn, new Listed(card, null, CardSource.HELD));
            });
        }
    }

    /** A counted card under the name a held unit gives it. */
    private static ProbeCard renamed(ProbeCard c, String uuid) {
        return new ProbeCard(c.cluster(), c.node(), c.pool(), uuid, c.memoryMib(), c.cores(), c.slots(), c.replicas(),
                c.mig(), c.model(), c.origin());
    }

    /**
     * A card only the units held on it tell of, shaped for {@code unit}: a MIG card of the default slices for a MIG
     * unit, a card whose replicas take every time-sliced unit of the node for a time-sliced one, else a plain card.
     */
    private ProbeCard heldOnly(HeldUnit unit, String uuid, List<HeldUnit> units, KnownNode node) {
        boolean mig = unit.kind() == UnitKind.MIG;
        int replicas = unit.kind() != UnitKind.SHARED ? 1 : (int) units.stream().filter(u -> u.kind() == UnitKind.SHARED
                && u.cluster().equals(unit.cluster()) && u.node().equals(unit.node())).count();
        String model = node == null ? null : node.model();
        return new ProbeCard(unit.cluster(), unit.node(), node == null ? NodePools.UNKNOWN : node.pool(), uuid,
                Math.max(0, unit.memoryMib()), 100, 0, replicas,
                mig ? new ProbeCard.MigLayout(policy.migSlicesOf(model), null) : null, model, ProbeCard.Origin.COUNTED);
    }

    private static CardSource source(ProbeCard.Origin origin) {
        return switch (origin) {
            case REGISTERED -> CardSource.REGISTERED;
            case PUBLISHED -> CardSource.PUBLISHED;
            case COUNTED -> CardSource.COUNTED;
        };
    }
}
