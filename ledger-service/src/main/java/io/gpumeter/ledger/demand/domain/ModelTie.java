package io.gpumeter.ledger.demand.domain;

import io.gpumeter.common.fact.LabelRequirement;
import io.gpumeter.common.fact.NodeSelectorTerm;
import io.gpumeter.common.fact.PodPlacement;
import io.gpumeter.ledger.inventory.domain.GpuModels;
import io.gpumeter.ledger.inventory.domain.NodeInventory;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which card model a waiting pod or a queued workload waits for, when the facts say one: the cards it was then
 * given, else what its placement demands of a node's {@code nvidia.com/gpu.product} label (its node selector, or
 * every term of its required node affinity naming that label with {@code In}), else the node labels of the Kueue
 * flavors its queue could give it. Several models, or a flavor or term that names none, tie it to no model.
 */
public final class ModelTie {

    private ModelTie() {
    }

    /** The one canonical model of these reported names (each possibly GFD's "-MIG-" product), else null. */
    public static String one(Collection<String> models) {
        Set<String> canonical = new HashSet<>();
        for (String m : models) {
            String c = product(m);
            if (c == null) {
                return null;
            }
            canonical.add(c);
        }
        return canonical.size() == 1 ? canonical.iterator().next() : null;
    }

    /** The model the placement restricts a pod to, else null. */
    public static String ofPlacement(PodPlacement placement) {
        if (placement == null) {
            return null;
        }
        String selected = placement.nodeSelector().get(NodeInventory.PRODUCT);
        if (selected != null) {
            return product(selected);
        }
        List<NodeSelectorTerm> terms = placement.nodeAffinity();
        if (terms.isEmpty()) {
            return null;
        }
        Set<String> values = new HashSet<>();
        for (NodeSelectorTerm term : terms) {
            List<String> named = term.matchExpressions().stream()
                    .filter(r -> NodeInventory.PRODUCT.equals(r.key()) && "In".equals(r.operator()))
                    .map(LabelRequirement::values).findFirst().orElse(null);
            if (named == null || named.isEmpty()) {
                return null; // a term any model's node may meet
            }
            values.addAll(named);
        }
        return one(values);
    }

    /** The model of a product label value (GFD's MIG suffix dropped), canonical; null for none. */
    static String product(String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        return GpuModels.canonical(new NodeInventory("", Map.of(NodeInventory.PRODUCT, value), List.of()).model());
    }
}
