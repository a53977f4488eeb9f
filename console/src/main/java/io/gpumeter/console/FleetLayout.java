package io.gpumeter.console;

import io.quarkus.qute.TemplateData;
import io.quarkus.runtime.annotations.RegisterForReflection;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * The ledger's picture of the fleet at an instant ({@code GET /api/v1/fleet/occupants?layout=true}): every node and
 * card the inventory knew, who held each card, the units on cards Kubernetes does not name placed by the ledger's
 * rule, a page of nodes and the cards per pool over them all. The console draws it as it comes.
 */
@TemplateData
@RegisterForReflection
public record FleetLayout(String at, String groupBy, List<Group> groups, int totalNodes, int offset, Integer limit,
                          List<Node> nodes) {

    /** The cards of one pool of one cluster. */
    @TemplateData
    @RegisterForReflection
    public record Group(String key, Map<String, String> group, int nodes, int cards, int held, int free, BigDecimal heldFraction) {

        public String name() {
            return group == null ? key : group.getOrDefault("pool", group.getOrDefault("model", key));
        }

        public String cluster() {
            return group == null ? null : group.get("cluster");
        }
    }

    /** A node: its cards (those a source names first), and units that fit on none of them. */
    @TemplateData
    @RegisterForReflection
    public record Node(String cluster, String node, String pool, String model, boolean inInventory, int cards, int held,
                       int free, BigDecimal heldFraction, List<Card> gpus, List<Occupant> unplaced) {

        /** Held cards no source names: the device plugin says how many units a pod holds, not which cards. */
        public List<Card> unnamed() {
            return gpus.stream().filter(c -> c.uuid() == null && !c.free()).toList();
        }

        public int unnamedUnits() {
            return unnamed().stream().mapToInt(c -> c.occupants().size()).sum();
        }

        public BigDecimal unnamedHeld() {
            return unnamed().stream().map(Card::heldFraction).reduce(BigDecimal.ZERO, BigDecimal::add);
        }
    }

    /** A card and who held it; a free card has no occupants. */
    @TemplateData
    @RegisterForReflection
    public record Card(String uuid, String model, String source, BigDecimal heldFraction, List<Occupant> occupants) {

        public boolean free() {
            return occupants == null || occupants.isEmpty();
        }
    }

    /** The cards of every node of the read, whatever the page. */
    public int totalCards() {
        return groups.stream().mapToInt(Group::cards).sum();
    }

    public int totalHeld() {
        return groups.stream().mapToInt(Group::held).sum();
    }
}
