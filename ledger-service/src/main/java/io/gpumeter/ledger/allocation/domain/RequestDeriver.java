package io.gpumeter.ledger.allocation.domain;

import io.gpumeter.common.fact.PodFact;
import io.gpumeter.ledger.history.domain.NamespaceTimeline;
import io.gpumeter.ledger.history.domain.PodHistory;
import io.gpumeter.ledger.inventory.domain.NodeInventory;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Optional;

/**
 * A pod's request, from its history: asked from its creation (else its first sighting) until it ended — the same
 * end as its allocation, or its deletion when it never ran — for the units its resources plan to (on its node
 * when it has one, else as if on a plain node) and its ResourceClaims ask for.
 */
public final class RequestDeriver {

    private final UnitPlanner planner;
    private final String teamKey;
    private final String projectKey;

    public RequestDeriver(UnitPlanner planner, String teamKey, String projectKey) {
        this.planner = planner;
        this.teamKey = teamKey;
        this.projectKey = projectKey;
    }

    public Optional<PodRequest> derive(String cluster, PodHistory history, NodeInventory node, NamespaceTimeline namespace) {
        return derive(cluster, history, node, namespace, BigDecimal.ZERO);
    }

    /** @param claimed what the pod's ResourceClaims ask for, in card-equivalents (its share of a shared claim) */
    public Optional<PodRequest> derive(String cluster, PodHistory history, NodeInventory node, NamespaceTimeline namespace,
                                       BigDecimal claimed) {
        PodFact latest = history.latest();
        PodFact shape = history.placement().orElse(latest);
        BigDecimal fraction = claimed;
        for (AllocationUnit unit : planner.plan(shape, node)) {
            fraction = fraction.add(unit.fraction());
        }
        if (fraction.signum() == 0) {
            return Optional.empty();
        }
        Instant asked = history.earliest(PodFact::createdAt)
                .orElseGet(() -> history.earliest(PodFact::observedAt).orElseThrow());
        Instant until = history.end().map(e -> e.isBefore(asked) ? asked : e).orElse(null);
        return Optional.of(new PodRequest(cluster, latest.uid(), latest.namespace(), latest.name(), asked, until, fraction,
                namespace.tenantAt(asked), AllocationDeriver.attribute(latest, teamKey, namespace.teamAt(asked)),
                AllocationDeriver.attribute(latest, projectKey, namespace.projectAt(asked))));
    }
}
