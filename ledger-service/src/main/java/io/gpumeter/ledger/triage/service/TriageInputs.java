package io.gpumeter.ledger.triage.service;

import io.gpumeter.common.fact.DriverSightingFact;
import io.gpumeter.common.fact.EventFact;
import io.gpumeter.common.fact.FactBatch;
import io.gpumeter.common.fact.FactBundle;
import io.gpumeter.common.fact.GovernanceBatch;
import io.gpumeter.common.fact.LogSignalFact;
import io.gpumeter.common.fact.NodeStatusFact;
import io.gpumeter.common.fact.NodeFact;
import io.gpumeter.common.fact.PendingPositionFact;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.common.fact.PodGroupFact;
import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.common.fact.QueueObjectFact;
import io.gpumeter.common.fact.StackPodFact;
import io.gpumeter.common.fact.StackWorkloadFact;
import io.gpumeter.common.fact.UsageBatch;
import io.gpumeter.common.fact.UsagePartial;
import io.gpumeter.common.fact.WorkloadFact;
import io.gpumeter.common.fact.XidFact;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.common.triage.InputBundle;
import io.gpumeter.common.triage.Triage.SubjectKind;
import io.gpumeter.common.triage.TriageRequest;
import io.gpumeter.ledger.governance.domain.SeenDriver;
import io.gpumeter.ledger.governance.repository.GovernanceSourceRepository;
import io.gpumeter.ledger.governance.repository.IncidentSourceRepository;
import io.gpumeter.ledger.governance.repository.IncidentRepository.StoredIncident;
import io.gpumeter.ledger.governance.repository.StackFactRepository;
import io.gpumeter.ledger.triage.domain.Holding;
import io.gpumeter.ledger.triage.domain.StoredMinute;
import io.gpumeter.ledger.triage.repository.HoldingRepository;
import io.gpumeter.ledger.triage.repository.PodVersionRepository;
import io.gpumeter.ledger.triage.repository.TriageIncidentRepository;
import io.gpumeter.ledger.triage.repository.TriageInputRepository;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The facts a triage reads, as the ledger's intakes take them ({@link InputBundle}), so that a regression case replays
 * them into a fresh suite and triages to the same cause. The governance facts: the subject's pod views (a Workload's
 * or PodGroup's member pods'), their events and log lines, the Workloads and PodGroups of them, and of the nodes they
 * ran on the status versions, GPU-stack pods, Xid reports and card announcements, kernel OOM events and driver
 * sightings, the stack's workloads; for a subject that may wait, the fleet it waits against too (each node's newest
 * status, each stack pod's, each queue object's, the namespace's queue places). The metering facts the holdings were
 * booked from: the subject's pod versions and those of every pod that held a unit on its nodes or cards at {@code at}
 * or at the start of one of its incidents (anywhere in the cluster at {@code at} for a subject that may wait), those
 * nodes' versions with their HAMi registrations (the fleet's newest too), the pods' namespaces. The usage: the minutes
 * of the subject's cards' memory series that the OOM branch reads before each of those instants. Only what was stored
 * up to {@code at}.
 */
@ApplicationScoped
public class TriageInputs {

    private final Clock clock;
    private final Pool pool;
    private final TriageSubjects subjects;
    private final PodVersionRepository versions;
    private final TriageInputRepository inputs;
    private final GovernanceSourceRepository source;
    private final IncidentSourceRepository incidentSource;
    private final StackFactRepository stack;
    private final HoldingRepository holdings;
    private final TriageIncidentRepository incidents;

    public TriageInputs(Clock clock, Pool pool, TriageSubjects subjects, PodVersionRepository versions,
                        TriageInputRepository inputs, GovernanceSourceRepository source,
                        IncidentSourceRepository incidentSource, StackFactRepository stack, HoldingRepository holdings,
                        TriageIncidentRepository incidents) {
        this.holdings = holdings;
        this.incidents = incidents;
        this.clock = clock;
        this.pool = pool;
        this.subjects = subjects;
        this.versions = versions;
        this.inputs = inputs;
        this.source = source;
        this.incidentSource = incidentSource;
        this.stack = stack;
    }

    /** What one subject's facts are gathered into. */
    private static final class Gathered {
        final String cluster;
        final Instant at;
        final List<WorkloadFact> workloads = new ArrayList<>();
        final List<PodGroupFact> podGroups = new ArrayList<>();
        final List<EventFact> events = new ArrayList<>();
        final List<PodStatusFact> pods = new ArrayList<>();
        final List<LogSignalFact> signals = new ArrayList<>();
        final Set<String> nodes = new TreeSet<>();
        boolean mayWait;
        String namespace;

        Gathered(String cluster, Instant at) {
            this.cluster = cluster;
            this.at = at;
        }
    }

    public Uni<InputBundle> of(TriageRequest request) {
        if (request.kind() == SubjectKind.SERVICE) {
            throw ApiProblem.badRequest("service", "an inference service is triaged by slo-service, which holds its inputs");
        }
        Instant at = request.at() != null ? request.at() : clock.instant();
        return subjects.locate(request, at).chain(found -> {
            Gathered g = new Gathered(found.cluster(), at);
            return switch (request.kind()) {
                case NODE -> {
                    g.nodes.add(request.name());
                    yield nodesAndFleet(g).chain(governance -> metering(g, governance));
                }
                case POD -> {
                    g.namespace = request.namespace();
                    yield pods(g, List.of(found.uid())).chain(() -> owned(g)).chain(() -> nodesAndFleet(g))
                            .chain(governance -> metering(g, governance));
                }
                default -> group(request, found.uid(), g);
            };
        });
    }

    private Uni<InputBundle> group(TriageRequest request, String uid, Gathered g) {
        g.namespace = request.namespace();
        g.mayWait = true;
        Uni<List<String>> members;
        if (request.kind() == SubjectKind.WORKLOAD) {
            members = workloads(g, List.of(uid)).chain(() -> {
                WorkloadFact newest = g.workloads.stream().max(Comparator.comparing(WorkloadFact::observedAt)).orElse(null);
                return newest == null || newest.owner() == null || newest.owner().name() == null
                        ? Uni.createFrom().item(List.<String>of())
                        : versions.ownerPods(g.cluster, g.namespace, newest.owner().kind(), newest.owner().name());
            });
        } else {
            members = podGroups(g, List.of(uid)).chain(() -> versions.groupPods(g.cluster, g.namespace, request.name()));
        }
        return members.chain(uids -> pods(g, uids)).chain(() -> nodesAndFleet(g))
                .chain(governance -> metering(g, governance));
    }

    /** The pods' versions, events and log lines up to the instant, and the nodes they ran on. */
    private Uni<Void> pods(Gathered g, List<String> uids) {
        if (uids.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return versions.podVersions(g.cluster, uids)
                .chain(stored -> {
                    Set<String> names = new TreeSet<>();
                    for (PodStatusFact v : stored) {
                        if (!v.observedAt().isAfter(g.at)) {
                            g.pods.add(v);
                            names.add(v.namespace() + "/" + v.name());
                            if (v.nodeName() != null) {
                                g.nodes.add(v.nodeName());
                            }
                        }
                    }
                    PodStatusFact newest = g.pods.stream().max(Comparator.comparing(PodStatusFact::observedAt)).orElse(null);
                    if (newest != null && newest.scheduledAt() == null && newest.nodeName() == null) {
                        g.mayWait = true;
                    }
                    return source.eventsAbout(pool, g.cluster, "Pod", uids, names)
                            .invoke(events -> g.events.addAll(upTo(events, EventFact::firstAt, g.at)))
                            .chain(() -> source.logSignals(pool, g.cluster, names))
                            .invoke(signals -> g.signals.addAll(upTo(signals, LogSignalFact::at, g.at)))
                            .replaceWithVoid();
                });
    }

    /** The Workloads of a pod's owner and the PodGroup it names, with their events. */
    private Uni<Void> owned(Gathered g) {
        PodStatusFact newest = g.pods.stream().max(Comparator.comparing(PodStatusFact::observedAt)).orElse(null);
        if (newest == null) {
            return Uni.createFrom().voidItem();
        }
        Uni<List<String>> workloads = newest.owner() == null || newest.owner().name() == null
                ? Uni.createFrom().item(List.of())
                : inputs.workloadsOwnedBy(g.cluster, g.namespace, newest.owner().kind(), newest.owner().name());
        Uni<Set<String>> groups = newest.groupName() == null ? Uni.createFrom().item(Set.of())
                : source.uidsByName(pool, g.cluster, "gov_pod_group_fact", Set.of(g.namespace + "/" + newest.groupName()));
        return workloads.chain(uids -> workloads(g, uids)).chain(() -> groups).chain(uids -> podGroups(g, List.copyOf(uids)));
    }

    private Uni<Void> workloads(Gathered g, List<String> uids) {
        if (uids.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return source.workloads(pool, g.cluster, uids).chain(versions -> {
            List<WorkloadFact> kept = upTo(versions, WorkloadFact::observedAt, g.at);
            g.workloads.addAll(kept);
            return source.eventsAbout(pool, g.cluster, "Workload", uids, names(kept, w -> w.namespace() + "/" + w.name()))
                    .invoke(events -> g.events.addAll(upTo(events, EventFact::firstAt, g.at))).replaceWithVoid();
        });
    }

    private Uni<Void> podGroups(Gathered g, List<String> uids) {
        if (uids.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return source.podGroups(pool, g.cluster, uids).chain(versions -> {
            List<PodGroupFact> kept = upTo(versions, PodGroupFact::observedAt, g.at);
            g.podGroups.addAll(kept);
            return source.eventsAbout(pool, g.cluster, "PodGroup", uids, names(kept, p -> p.namespace() + "/" + p.name()))
                    .invoke(events -> g.events.addAll(upTo(events, EventFact::firstAt, g.at))).replaceWithVoid();
        });
    }

    /** The nodes' facts, and the fleet's where the subject may wait; then the batch. */
    private Uni<GovernanceBatch> nodesAndFleet(Gathered g) {
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
        Uni<List<io.gpumeter.common.fact.GpuAddressFact>> addresses = nodes.isEmpty() ? Uni.createFrom().item(List.of())
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

    /**
     * The metering facts and usage behind the holdings and the cards' memory the diagnosis reads, beside the
     * governance facts: first the subject's holdings and incidents (which cards, which instants), then in one round
     * the pod versions, node versions and memory minutes, then the pods' namespaces.
     */
    private Uni<InputBundle> metering(Gathered g, GovernanceBatch governance) {
        Set<String> uids = new TreeSet<>();
        g.pods.forEach(p -> uids.add(p.uid()));
        Uni<List<Holding>> held = uids.isEmpty() ? Uni.createFrom().item(List.of()) : holdings.holdingsOfPods(g.cluster, uids);
        Uni<List<StoredIncident>> started = incidents.incidentsAround(g.cluster, uids, g.nodes, g.at);
        return Uni.combine().all().unis(held, started).asTuple().chain(t -> {
            Set<String> nodes = new TreeSet<>(g.nodes);
            Set<String> cards = new TreeSet<>();
            Map<String, String> nodeOfCard = new HashMap<>();
            for (Holding h : t.getItem1()) {
                if (h.since() != null && h.since().isAfter(g.at)) {
                    continue;
                }
                if (h.node() != null) {
                    nodes.add(h.node());
                }
                if (h.gpuUuid() != null) {
                    cards.add(h.gpuUuid());
                    if (h.node() != null) {
                        nodeOfCard.put(h.gpuUuid(), h.node());
                    }
                }
            }
            // the instants the diagnosis reads holdings and memory at: the question's and each incident's start
            Set<Instant> instants = new TreeSet<>();
            instants.add(g.at);
            t.getItem2().forEach(i -> instants.add(i.incident().startedAt()));
            List<Instant> when = List.copyOf(instants);
            Uni<List<PodFact>> pods = inputs.podFacts(g.cluster, uids, nodes, cards, g.mayWait, when, g.at);
            Uni<List<NodeFact>> nodeFacts = inputs.nodeFacts(g.cluster, nodes, g.mayWait, g.at);
            Uni<List<StoredMinute>> minutes = cards.isEmpty() ? Uni.createFrom().item(List.of())
                    : inputs.memoryMinutes(g.cluster, cards,
                    when.stream().map(i -> i.truncatedTo(ChronoUnit.MINUTES).minus(PodCaseReader.MEMORY_BEFORE)).toList(),
                    when.stream().map(i -> i.truncatedTo(ChronoUnit.MINUTES)).toList());
            return Uni.combine().all().unis(pods, nodeFacts, minutes).asTuple().chain(m -> {
                Set<String> namespaces = new TreeSet<>();
                if (g.namespace != null) {
                    namespaces.add(g.namespace);
                }
                m.getItem1().forEach(p -> namespaces.add(p.namespace()));
                governance.podStatuses().forEach(p -> namespaces.add(p.namespace()));
                List<UsagePartial> partials = new ArrayList<>();
                for (StoredMinute row : m.getItem3()) {
                    UsagePartial p = row.partial(nodeOfCard.get(row.gpuUuid()));
                    if (p != null) {
                        partials.add(p);
                    }
                }
                return inputs.namespaceFacts(g.cluster, namespaces, g.at).map(ns -> new InputBundle(g.cluster,
                        new FactBundle(new FactBatch(g.cluster, ns, m.getItem2(), m.getItem1()), governance),
                        partials.isEmpty() ? null : new UsageBatch(g.cluster, List.of(), partials)));
            });
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

    private static <T> List<T> upTo(List<T> facts, Function<T, Instant> at, Instant until) {
        return facts.stream().filter(f -> at.apply(f) == null || !at.apply(f).isAfter(until)).toList();
    }

    private static <T> Set<String> names(List<T> facts, Function<T, String> name) {
        Set<String> out = new TreeSet<>();
        facts.forEach(f -> out.add(name.apply(f)));
        return out;
    }

}
