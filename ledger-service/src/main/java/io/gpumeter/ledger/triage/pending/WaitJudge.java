package io.gpumeter.ledger.triage.pending;

import io.gpumeter.common.fact.EventFact;
import io.gpumeter.common.fact.NodeFact;
import io.gpumeter.common.fact.NodeStatusFact;
import io.gpumeter.common.fact.PodGroupFact;
import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.common.fact.StackPodFact;
import io.gpumeter.common.fact.WorkloadFact;
import io.gpumeter.common.triage.PendingReason;
import io.gpumeter.ledger.fragmentation.domain.HeldUnit;
import io.gpumeter.ledger.governance.domain.PodGroupTrail;
import io.gpumeter.ledger.governance.domain.PodTrail;
import io.gpumeter.ledger.governance.domain.QueueSource;
import io.gpumeter.ledger.governance.domain.QueueState;
import io.gpumeter.ledger.governance.domain.WorkloadTrail;
import io.gpumeter.ledger.governance.repository.GovernanceSourceRepository;
import io.gpumeter.ledger.governance.repository.QueueBookRepository.StoredItem;
import io.gpumeter.ledger.governance.repository.QueueBookRepository;
import io.gpumeter.ledger.repository.FragmentationRepository;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The one owner of why something waits: it reads, in bulk, what the {@link PendingTree} needs at an instant and
 * judges each wait with it. The reads of what waits now (queue-wait pending, the scheduling decisions) and the triage
 * of one subject all ask it, so each says the same cause for the same wait.
 */
@ApplicationScoped
public class WaitJudge {

    /** The states of the queue book in which an object waits. */
    public static final Set<String> WAITING = Set.of("PENDING", "EVICTED", "INACTIVE");

    private final Pool pool;
    private final WaitFactsRepository facts;
    private final FragmentationRepository fragmentation;
    private final GovernanceSourceRepository source;
    private final QueueBookRepository books;
    private final Set<String> plugins;

    public WaitJudge(Pool pool, WaitFactsRepository facts, FragmentationRepository fragmentation,
                     GovernanceSourceRepository source, QueueBookRepository books,
                     @ConfigProperty(name = "gpumeter.ledger.triage.device-plugin-components",
                             defaultValue = "device-plugin,hami-device-plugin") List<String> plugins) {
        this.pool = pool;
        this.facts = facts;
        this.fragmentation = fragmentation;
        this.source = source;
        this.books = books;
        this.plugins = Set.copyOf(plugins);
    }

    public static String key(String cluster, QueueSource source, String uid) {
        return cluster + "|" + source.name() + "|" + uid;
    }

    /**
     * The class a read of what waits shows: the cause the facts decide, else (a kubelet's refusal, whose cause is a
     * failure's, or a wait not judged) the class stored with what was said; null when neither is known.
     */
    public static PendingReason shownClass(WaitDiagnosis judged, String storedClass) {
        return judged != null && judged.reason() != null ? judged.reason() : PendingReason.ofLabel(storedClass);
    }

    /** Every cluster's nodes at {@code at} (one cluster's when named): four reads, whatever the number of nodes. */
    public Uni<Map<String, Fleet>> fleets(String cluster, Instant at) {
        return facts.nodeStatuses(cluster, at)
                .chain(statuses -> fragmentation.nodes(at, cluster)
                        .chain(nodes -> facts.stackPods(cluster, at, plugins)
                                .chain(pods -> fragmentation.held(at, cluster)
                                        .map(held -> fleets(at, statuses, nodes, pods, held)))));
    }

    private Map<String, Fleet> fleets(Instant at, List<WaitFactsRepository.InCluster<NodeStatusFact>> statuses,
                                      List<FragmentationRepository.NodeAt> nodes,
                                      List<WaitFactsRepository.InCluster<StackPodFact>> pods, List<HeldUnit> held) {
        Set<String> clusters = new TreeSet<>();
        statuses.forEach(s -> clusters.add(s.cluster()));
        nodes.forEach(n -> clusters.add(n.cluster()));
        Map<String, Fleet> out = new HashMap<>();
        for (String c : clusters) {
            List<NodeStatusFact> s = statuses.stream().filter(x -> x.cluster().equals(c)).map(WaitFactsRepository.InCluster::fact).toList();
            List<NodeFact> n = nodes.stream().filter(x -> x.cluster().equals(c)).map(FragmentationRepository.NodeAt::node).toList();
            List<StackPodFact> p = pods.stream().filter(x -> x.cluster().equals(c)).map(WaitFactsRepository.InCluster::fact).toList();
            List<HeldUnit> h = held.stream().filter(x -> c.equals(x.cluster())).toList();
            out.put(c, Fleets.of(c, at, s, n, p, plugins, h));
        }
        return out;
    }

    static Fleet fleetOf(Map<String, Fleet> fleets, String cluster, Instant at) {
        return fleets.getOrDefault(cluster, Fleet.empty(cluster, at));
    }

    // ---- what the queue book holds as waiting, in bulk ----

    /**
     * The cause of each stored waiting item at {@code at}, keyed {@link #key}: the fleets, the pods' newest views,
     * the Workloads' newest versions, the ClusterQueues and the positions, each read once for all of them.
     */
    public Uni<Map<String, WaitDiagnosis>> ofStored(String cluster, Instant at, List<StoredItem> items) {
        if (items.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        List<String[]> pods = new ArrayList<>();
        List<String[]> workloads = new ArrayList<>();
        for (StoredItem i : items) {
            if (i.source() == QueueSource.POD) {
                pods.add(new String[]{i.cluster(), i.uid()});
            } else if (i.source() == QueueSource.KUEUE) {
                workloads.add(new String[]{i.cluster(), i.uid()});
            }
        }
        Uni<Map<String, Fleet>> fleets = pods.isEmpty() ? Uni.createFrom().item(Map.of()) : fleets(cluster, at);
        return fleets.chain(f -> facts.podViews(pods, at)
                .chain(views -> facts.workloads(workloads, at)
                        .chain(wls -> queues(cluster, at, !workloads.isEmpty())
                                .map(q -> StoredWaits.judge(at, items, f, views, wls, q)))));
    }

    /** The ClusterQueues and positions at {@code at}, read only when some Workload waits. */
    private Uni<KueueQueues> queues(String cluster, Instant at, boolean needed) {
        if (!needed) {
            return Uni.createFrom().item(new KueueQueues(Map.of(), Map.of()));
        }
        return facts.clusterQueues(cluster, at).chain(cqs -> facts.positions(cluster, at).map(p -> new KueueQueues(cqs, p)));
    }

    // ---- one subject, from its trail as it stood at an instant ----

    /** A pod's wait at {@code at}; a pod a gate holds back is judged by its Workload's wait, when the ledger holds it. */
    public Uni<WaitDiagnosis> ofPod(String cluster, Instant at, PodTrail trail) {
        QueueState state = trail.state();
        PodStatusFact latest = trail.latest();
        Waiting w = Waitings.ofPod(state, latest, trail.refusedAt());
        Uni<WaitDiagnosis> alone = fleets(cluster, at).map(f -> PendingTree.diagnose(w, fleetOf(f, cluster, at)));
        if (!w.gated() || latest.owner() == null) {
            return alone;
        }
        return facts.workloadsOwnedBy(cluster, latest.namespace(), latest.owner().kind(), latest.owner().name())
                .chain(uids -> uids.isEmpty() ? Uni.createFrom().<WorkloadAt>nullItem() : workloadAt(cluster, at, uids.get(0)))
                .chain(workload -> {
                    if (workload == null || !WAITING.contains(workload.trail().state().state().name())) {
                        return alone;
                    }
                    return ofWorkload(cluster, at, workload.trail(), workload.latest())
                            .map(d -> PendingTree.heldByGate(d, w, workload.latest().name()));
                });
    }

    /**
     * A Workload's wait at {@code at}, with its ClusterQueue and place as they stood then; until it is admitted, its
     * ClusterQueue is the one its LocalQueue feeds.
     */
    public Uni<WaitDiagnosis> ofWorkload(String cluster, Instant at, WorkloadTrail trail, WorkloadFact latest) {
        QueueState state = trail.state();
        String admittedBy = state.keys().clusterQueue();
        Uni<String> clusterQueue = admittedBy != null || state.keys().localQueue() == null ? Uni.createFrom().item(admittedBy)
                : books.queuesBehind(cluster, latest.namespace(), state.keys().localQueue(), null)
                .map(QueueBookRepository.QueuesBehind::clusterQueue);
        return clusterQueue.chain(cq -> queues(cluster, at, true).map(q -> PendingTree.diagnose(
                Waitings.ofWorkload(state, latest, q.of(cluster, latest.namespace(), latest.name(), cq, latest)),
                Fleet.empty(cluster, at))));
    }

    /** A PodGroup's wait: what Volcano said of it. */
    public Uni<WaitDiagnosis> ofPodGroup(String cluster, Instant at, PodGroupTrail trail, PodGroupFact latest) {
        return Uni.createFrom().item(PendingTree.diagnose(Waitings.ofPodGroup(trail.state(), latest), Fleet.empty(cluster, at)));
    }

    /** A Workload's trail from its versions and events by {@code at}. */
    public record WorkloadAt(WorkloadTrail trail, WorkloadFact latest) {
    }

    public Uni<WorkloadAt> workloadAt(String cluster, Instant at, String uid) {
        return source.workloads(pool, cluster, Set.of(uid)).chain(all -> {
            List<WorkloadFact> versions = all.stream().filter(v -> !v.observedAt().isAfter(at)).toList();
            if (versions.isEmpty()) {
                return Uni.createFrom().nullItem();
            }
            Set<String> names = new LinkedHashSet<>();
            versions.forEach(v -> names.add(v.namespace() + "/" + v.name()));
            return source.eventsAbout(pool, cluster, "Workload", Set.of(uid), names).map(events -> {
                List<EventFact> before = events.stream().filter(e -> e.firstAt() == null || !e.firstAt().isAfter(at)).toList();
                WorkloadTrail trail = new WorkloadTrail(versions, before);
                WorkloadFact latest = versions.stream().max(Comparator.comparing(WorkloadFact::observedAt)).orElseThrow();
                return new WorkloadAt(trail, latest);
            });
        });
    }
}
