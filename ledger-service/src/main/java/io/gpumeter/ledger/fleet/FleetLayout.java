package io.gpumeter.ledger.fleet;

import io.gpumeter.ledger.occupancy.domain.Occupant;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The fleet at an instant as the inventory knew it: every node, every card on it and who held each card, the units
 * on cards Kubernetes does not name placed by the fragmentation probe's rule, a page of the nodes and, over every
 * node of the read, the cards per pool or model.
 *
 * @param groupBy    {@code pool} or {@code model}: how {@code groups} are cut
 * @param groups     every node of the read (all pages) per cluster and pool or model
 * @param totalNodes the nodes of the read, on every page
 * @param limit      the page's length asked for, null for every node
 * @param nodes      the page of nodes, by cluster then name
 */
public record FleetLayout(Instant at, String groupBy, List<Group> groups, int totalNodes, int offset, Integer limit,
                          List<Node> nodes) {

    /** How the layout knows a card. */
    public enum CardSource {
        /** HAMi's device registration on the node names it. */
        REGISTERED,
        /** NVIDIA's DRA driver publishes it in a ResourceSlice. */
        PUBLISHED,
        /** The node's {@code nvidia.com/gpu.count} label counts it; a unit held on it may name it. */
        COUNTED,
        /** Only the units held on it tell of it: the inventory did not list it, or not its node, at the instant. */
        HELD
    }

    /**
     * One group's cards.
     *
     * @param key          e.g. {@code lab/inference}
     * @param group        its cluster and its {@code pool} or {@code model}
     * @param held         cards with at least one unit held
     * @param free         cards with none
     * @param heldFraction the units' fractions summed: how many cards' worth was held
     */
    public record Group(String key, Map<String, String> group, int nodes, int cards, int held, int free,
                        BigDecimal heldFraction) {
    }

    /**
     * One node and its cards: those a source names first, by UUID, then those it only counts.
     *
     * @param pool         the node's pool as the ledger names pools (fragmentation, change book)
     * @param inInventory  false for a node known only from the units held on it at the instant
     * @param heldFraction every unit's fraction on the node, the unplaced ones included
     * @param unplaced     units of the node that fit on none of its cards (more held than the node offers)
     */
    public record Node(String cluster, String node, String pool, String model, boolean inInventory, int cards, int held,
                       int free, BigDecimal heldFraction, List<Card> gpus, List<Occupant> unplaced) {
    }

    /**
     * One card.
     *
     * @param uuid      null for a card only counted that no held unit names
     * @param occupants the units held on it, as {@code GET /api/v1/fleet/occupants} lists them; empty when free
     */
    public record Card(String uuid, String model, CardSource source, BigDecimal heldFraction, List<Occupant> occupants) {
    }
}
