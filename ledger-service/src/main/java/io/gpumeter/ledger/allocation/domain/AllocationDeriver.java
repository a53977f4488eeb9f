package io.gpumeter.ledger.allocation.domain;

import io.gpumeter.common.fact.PodFact;
import io.gpumeter.ledger.hami.domain.GrantFinding;
import io.gpumeter.ledger.hami.domain.HamiGrants;
import io.gpumeter.ledger.hami.domain.HamiResources;
import io.gpumeter.ledger.history.domain.GpuBinding;
import io.gpumeter.ledger.history.domain.NamespaceTimeline;
import io.gpumeter.ledger.history.domain.PodHistory;
import io.gpumeter.ledger.inventory.domain.NodeInventory;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Derives a pod's allocation segments from its history, its node's inventory and its namespace's labels. */
public final class AllocationDeriver {

    static final String UNASSIGNED = "unassigned";

    private final UnitPlanner planner;
    private final HamiGrants grants;
    private final String teamKey;
    private final String projectKey;

    public AllocationDeriver(UnitPlanner planner, String teamKey, String projectKey) {
        this(planner, new HamiGrants(HamiResources.DEFAULTS), teamKey, projectKey);
    }

    public AllocationDeriver(UnitPlanner planner, HamiGrants grants, String teamKey, String projectKey) {
        this.planner = planner;
        this.grants = grants;
        this.teamKey = teamKey;
        this.projectKey = projectKey;
    }

    /** A pod's segments, and the HAMi grants it names that were not booked. */
    public record Derived(List<AllocationSegment> segments, List<GrantFinding> refusals) {
        static final Derived NOTHING = new Derived(List.of(), List.of());
    }

    public List<AllocationSegment> derive(String cluster, PodHistory history, NodeInventory node,
                                          NamespaceTimeline namespace, List<GpuBinding> bindings) {
        return derive(cluster, history, node, namespace, bindings, List.of());
    }

    public List<AllocationSegment> derive(String cluster, PodHistory history, NodeInventory node,
                                          NamespaceTimeline namespace, List<GpuBinding> bindings,
                                          List<PodUnit> claimed) {
        return derive(cluster, history, node, true, namespace, bindings, claimed).segments();
    }

    /**
     * @param nodeKnown whether {@code node} is the ledger's inventory of the pod's node, not a stand-in for one not
     *                  seen yet (HAMi grants wait for it)
     * @param claimed   the units the pod holds through ResourceClaims, after the units its resources and annotations
     *                  plan to; a shared claim's unit is split where its number of holders changes, and an
     *                  admin-access unit holds nothing while its namespace admitted admin access
     */
    public Derived derive(String cluster, PodHistory history, NodeInventory node, boolean nodeKnown,
                          NamespaceTimeline namespace, List<GpuBinding> bindings, List<PodUnit> claimed) {
        Optional<Instant> start = history.start();
        Optional<PodFact> placement = history.placement();
        if (start.isEmpty() || placement.isEmpty()) {
            return Derived.NOTHING;
        }
        Instant since = start.get();
        Instant until = history.end().map(e -> e.isBefore(since) ? since : e).orElse(null);
        PodFact latest = history.latest();
        HamiGrants.Verdict verdict = grants.verify(history, nodeKnown ? node : null, bindings, since, until);
        List<GrantFinding> refusals = verdict.refused().stream()
                .map(r -> new GrantFinding(cluster, latest.uid(), latest.namespace(), latest.name(),
                        placement.get().nodeName(), r.grant().uuid(), r.grant().memoryMib(), r.grant().cores(),
                        r.check(), r.detail(), since, until, namespace.tenantAt(since),
                        attribute(latest, teamKey, namespace.teamAt(since)),
                        attribute(latest, projectKey, namespace.projectAt(since))))
                .toList();
        List<PodUnit> units = new ArrayList<>();
        List<AllocationUnit> planned = CardNaming.name(planner.plan(placement.get(), node, verdict.held()), bindings,
                since, until);
        planned.forEach(u -> units.add(PodUnit.alone(u)));
        units.addAll(CardNaming.instances(claimed, planned, bindings, since, until));
        if (units.isEmpty()) {
            return new Derived(List.of(), refusals);
        }
        List<Instant[]> pieces = pieces(since, until, namespace);
        List<AllocationSegment> segments = new ArrayList<>();
        for (int u = 0; u < units.size(); u++) {
            PodUnit held = units.get(u);
            for (Instant[] piece : pieces) {
                Instant at = piece[0];
                for (Instant[] share : held.sharing().split(piece[0], piece[1])) {
                    if (held.sharing().freeAt(share[0])) {
                        continue; // admin access where the namespace admitted it: nothing held then
                    }
                    AllocationUnit unit = held.unit();
                    AllocationUnit part = new AllocationUnit(unit.kind(), unit.gpuUuid(), unit.gpuModel(),
                            unit.migProfile(), unit.cores(), unit.memoryMib(),
                            held.sharing().share(unit.fraction(), share[0]), unit.source(), unit.migInstance());
                    segments.add(new AllocationSegment(cluster, latest.uid(), u, latest.namespace(), latest.name(),
                            placement.get().nodeName(), part, since, until, share[0], share[1],
                            latest.owner() == null ? null : latest.owner().kind(),
                            latest.owner() == null ? null : latest.owner().name(),
                            namespace.tenantAt(at), attribute(latest, teamKey, namespace.teamAt(at)),
                            attribute(latest, projectKey, namespace.projectAt(at))));
                }
            }
        }
        return new Derived(segments, refusals);
    }

    /** Splits [since, until) at the instants the namespace's attribution changes, merging no-op splits. */
    private List<Instant[]> pieces(Instant since, Instant until, NamespaceTimeline namespace) {
        List<Instant[]> pieces = new ArrayList<>();
        Instant pieceStart = since;
        for (Instant change : namespace.changeInstants()) {
            if (!change.isAfter(since) || (until != null && !change.isBefore(until))) {
                continue;
            }
            if (!sameAttribution(namespace, pieceStart, change)) {
                pieces.add(new Instant[] {pieceStart, change});
                pieceStart = change;
            }
        }
        pieces.add(new Instant[] {pieceStart, until});
        return pieces;
    }

    private static boolean sameAttribution(NamespaceTimeline ns, Instant a, Instant b) {
        return Objects.equals(ns.tenantAt(a), ns.tenantAt(b)) && Objects.equals(ns.teamAt(a), ns.teamAt(b))
                && Objects.equals(ns.projectAt(a), ns.projectAt(b));
    }

    /** A pod's own label wins over its namespace's; neither means unassigned. */
    static String attribute(PodFact pod, String key, String namespaceValue) {
        String own = pod.labels().get(key);
        if (own != null && !own.isBlank()) {
            return own;
        }
        return namespaceValue != null ? namespaceValue : UNASSIGNED;
    }
}
