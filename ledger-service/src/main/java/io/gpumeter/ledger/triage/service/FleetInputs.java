package io.gpumeter.ledger.triage.service;

import io.gpumeter.common.fact.DriverSightingFact;
import io.gpumeter.common.fact.EventFact;
import io.gpumeter.common.fact.GovernanceBatch;
import io.gpumeter.common.fact.GpuAddressFact;
import io.gpumeter.common.fact.NodeStatusFact;
import io.gpumeter.common.fact.PendingPositionFact;
import io.gpumeter.common.fact.QueueObjectFact;
import io.gpumeter.common.fact.StackPodFact;
import io.gpumeter.common.fact.StackWorkloadFact;
import io.gpumeter.common.fact.XidFact;
import io.gpumeter.ledger.governance.domain.SeenDriver;
import io.gpumeter.ledger.governance.repository.IncidentSourceRepository;
import io.gpumeter.ledger.governance.repository.StackFactRepository;
import io.gpumeter.ledger.triage.repository.TriageIncidentRepository;
import io.gpumeter.ledger.triage.repository.TriageInputRepository;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

import static io.gpumeter.ledger.triage.service.GatheredInputs.upTo;

/**
 * The inputs of the nodes a triage subject ran on — their status versions, GPU-stack pods, Xid reports and card
 * announcements, kernel OOM events and driver sightings, the stack's workloads — and, for a subject that may wait, the
 * fleet it waits against (each node's newest status, each stack pod's, each queue object's, the namespace's queue
 * places); then all that was gathered, as the governance intake takes it.
 */
@ApplicationScoped
public class FleetInputs {

    private final Pool pool;
    private final TriageInputRepository inputs;
    private final IncidentSourceRepository incidentSource;
    private final StackFactRepository stack;

    public FleetInputs(Pool pool, TriageInputRepository inputs, IncidentSourceRepository incidentSource,
                       StackFactRepository stack) {
        this.pool = pool;
        this.inputs = inputs;
        this.incidentSource = incidentSource;
        this.stack = stack;
    }

    /** The nodes' facts, and the fleet's where the subject may wait; then the batch. */
    Uni<GovernanceBatch> batch(GatheredInputs g) {
        List<String> nodes = List.copyOf(g.nodes);
        Instant from = g.at.minus(TriageIncidentRepository.INCIDENT_LOOK_BACK);
        Uni<List<NodeStatusFact>> statuses = g.mayWait ? inputs.latestStatuses(g.cluster, g.at)
                .chain(latest -> stack.statusVersions(pool, g.cluster, nodes)
                        .map(own -> union(own, latest, NodeStatusFact::observedAt, g.at)))
                : stack.statusVersions(pool, g.cluster, nodes).map(own -> upTo(own, NodeStatusFact::observedAt, g.at));
        Uni<List<StackPodFact>> stackPods = g.mayWait ? inputs.latestStackPods(g.cluster, g.at)
                .chain(latest -> stack.podsOn(pool, g.cluster, nodes)
                        .map(own -> union(own, latest, StackPodFact::observedAt, g.at)))
                : stack.podsOn(pool, g.cluster, nodes).map(own -> upTo(own, StackPodFact::observedAt, g.at));
        Uni<List<QueueObjectFact>> queues = g.mayWait ? inputs.latestQueueObjects(g.cluster, g.at)
                : Uni.createFrom().item(List.of());
        Uni<List<PendingPositionFact>> positions = g.mayWait && g.namespace != null
                ? inputs.positions(g.cluster, g.namespace, g.at) : Uni.createFrom().item(List.of());
        Uni<List<StackWorkloadFact>> stackWorkloads = stack.workloadsAt(pool, g.cluster, g.at);
        Uni<List<XidFact>> xids = nodes.isEmpty() ? Uni.createFrom().item(List.of())
                : inputs.xidsOn(g.cluster, nodes, from, g.at);
        Uni<List<GpuAddressFact>> addresses = nodes.isEmpty() ? Uni.createFrom().item(List.of())
                : inputs.addressesOn(g.cluster, nodes, g.at);
        Uni<List<EventFact>> ooms = nodes.isEmpty() ? Uni.createFrom().item(List.of())
                : incidentSource.nodeOomEvents(pool, g.cluster, nodes);
        Uni<List<SeenDriver>> drivers = nodes.isEmpty() ? Uni.createFrom().item(List.of())
                : stack.sightings(pool, g.cluster, nodes, g.at);
        return Uni.combine().all().unis(statuses, stackPods, queues, positions, stackWorkloads, xids, addresses, ooms, drivers)
                .asTuple().map(t -> {
                    List<EventFact> events = new ArrayList<>(g.events);
                    events.addAll(upTo(t.getItem8(), EventFact::firstAt, g.at));
                    return new GovernanceBatch(g.cluster, g.workloads, t.getItem3(), g.podGroups, List.of(), events, g.pods,
                            t.getItem6(), t.getItem7(), g.signals, t.getItem4(), t.getItem1(), t.getItem5(), t.getItem2(),
                            sightings(t.getItem9(), g.at));
                });
    }

    /** A sighting as the intake takes it: its first instant and, where later, its last (the intake widens the row). */
    static List<DriverSightingFact> sightings(List<SeenDriver> seen, Instant at) {
        List<DriverSightingFact> out = new ArrayList<>();
        for (SeenDriver s : seen) {
            out.add(new DriverSightingFact(s.node(), s.gpuUuid(), s.version(), s.source(), s.firstSeen()));
            Instant last = s.lastSeen().isAfter(at) ? at : s.lastSeen();
            if (last.isAfter(s.firstSeen())) {
                out.add(new DriverSightingFact(s.node(), s.gpuUuid(), s.version(), s.source(), last));
            }
        }
        return out;
    }

    /** The nodes' own versions and the fleet's newest, each once, up to the instant. */
    private static <T> List<T> union(List<T> own, List<T> latest, Function<T, Instant> at, Instant until) {
        Set<T> out = new LinkedHashSet<>(own);
        out.addAll(latest);
        return upTo(List.copyOf(out), at, until);
    }
}
