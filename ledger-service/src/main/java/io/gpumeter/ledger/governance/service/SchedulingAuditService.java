package io.gpumeter.ledger.governance.service;

import io.gpumeter.common.fact.PodGroupFact;
import io.gpumeter.common.fact.QueueObjectFact;
import io.gpumeter.common.fact.QueueObjectKind;
import io.gpumeter.common.fact.QuotaLine;
import io.gpumeter.common.fact.WorkloadFact;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.ledger.governance.domain.PodGroupTrail;
import io.gpumeter.ledger.governance.domain.PodTrail;
import io.gpumeter.ledger.governance.domain.QueueKeys;
import io.gpumeter.ledger.governance.domain.QueueState;
import io.gpumeter.ledger.governance.domain.TrailEntry;
import io.gpumeter.ledger.governance.domain.WaitEpisode;
import io.gpumeter.ledger.governance.domain.WorkloadTrail;
import io.gpumeter.ledger.governance.repository.GovernanceSourceRepository;
import io.gpumeter.ledger.governance.repository.PodStatusVersions;
import io.gpumeter.ledger.governance.repository.QueueBookRepository.StoredItem;
import io.gpumeter.ledger.governance.repository.QueueBookRepository;
import io.gpumeter.ledger.triage.pending.WaitDiagnosis;
import io.gpumeter.ledger.triage.pending.WaitJudge;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Q6: why a pod, workload or pod group waits or was admitted, and whether each ClusterQueue honours its quota. The
 * class of a wait is the cause the facts decide now ({@link WaitJudge}), the trail keeps what was said at each step.
 */
@ApplicationScoped
public class SchedulingAuditService {

    /** Pods whose decisions one pod queues read reads at once: a few connections of the pool, never all. */
    private static final int QUEUE_READS_AT_ONCE = 4;

    private final Pool pool;
    private final GovernanceSourceRepository source;
    private final QueueBookRepository books;
    private final WaitJudge judge;
    private final Clock clock;

    public SchedulingAuditService(Pool pool, GovernanceSourceRepository source, QueueBookRepository books,
                                  WaitJudge judge, Clock clock) {
        this.pool = pool;
        this.source = source;
        this.books = books;
        this.judge = judge;
        this.clock = clock;
    }

    /** The cause of a wait now, or null for an object that does not wait. */
    private Uni<WaitDiagnosis> judged(QueueState state, java.util.function.Supplier<Uni<WaitDiagnosis>> judgement) {
        return WaitJudge.WAITING.contains(state.state().name()) ? judgement.get() : Uni.createFrom().nullItem();
    }

    public Uni<Decision> ofWorkload(String cluster, String namespace, String name) {
        return locate("gov_workload_fact", "workload", cluster, namespace, name).chain(at -> source.workloads(pool, at[0], Set.of(at[1]))
                .chain(versions -> source.eventsAbout(pool, at[0], "Workload", Set.of(at[1]), Set.of(namespace + "/" + name))
                        .chain(events -> {
                            WorkloadTrail trail = new WorkloadTrail(versions, events);
                            QueueKeys keys = trail.keys();
                            // the admission names the ClusterQueue; until then the one its LocalQueue feeds is where it waits
                            String admittedBy = keys.clusterQueue();
                            QueueState state = trail.state();
                            WorkloadFact latest = versions.stream().max(java.util.Comparator.comparing(WorkloadFact::observedAt))
                                    .orElseThrow();
                            return books.queuesBehind(at[0], keys.namespace(), admittedBy == null ? keys.localQueue() : null, null)
                                    .chain(behind -> judged(state, () -> judge.ofWorkload(at[0], clock.instant(), trail, latest))
                                            .map(cause -> decision(at[0], "Workload", state, cause, trail.episodes(), null,
                                                    trail.trail(), Decision.Queue.of(admittedBy != null ? admittedBy
                                                            : behind.clusterQueue(), keys.localQueue(), null))));
                        })));
    }

    public Uni<Decision> ofPodGroup(String cluster, String namespace, String name) {
        return locate("gov_pod_group_fact", "podGroup", cluster, namespace, name).chain(at -> source.podGroups(pool, at[0], Set.of(at[1]))
                .chain(versions -> source.eventsAbout(pool, at[0], "PodGroup", Set.of(at[1]), Set.of(namespace + "/" + name))
                        .chain(events -> {
                            PodGroupTrail trail = new PodGroupTrail(versions, events);
                            QueueState state = trail.state();
                            PodGroupFact latest = versions.stream().max(java.util.Comparator.comparing(PodGroupFact::observedAt))
                                    .orElseThrow();
                            return judged(state, () -> judge.ofPodGroup(at[0], clock.instant(), trail, latest))
                                    .map(cause -> decision(at[0], "PodGroup", state, cause, trail.episodes(), trail.phases(),
                                            trail.trail(), Decision.Queue.of(null, null, trail.keys().volcanoQueue())));
                        })));
    }

    public Uni<Decision> ofPod(String cluster, String namespace, String name) {
        return ofPod(cluster, namespace, name, true);
    }

    /** @param judged whether a wait's cause is judged from the facts (not for the queue part alone) */
    private Uni<Decision> ofPod(String cluster, String namespace, String name, boolean judged) {
        return locate(PodStatusVersions.RELATION, "pod", cluster, namespace, name).chain(at -> source.pods(pool, at[0], Set.of(at[1]))
                .chain(versions -> source.eventsAbout(pool, at[0], "Pod", Set.of(at[1]), Set.of(namespace + "/" + name))
                        .chain(events -> {
                            PodTrail trail = new PodTrail(versions, events);
                            QueueState state = trail.state();
                            String localQueue = trail.keys().localQueue();
                            // a pod names its LocalQueue (label kueue.x-k8s.io/queue-name) and its gang (PodGroup);
                            // the ClusterQueue and the Volcano queue are behind those objects
                            return books.queuesBehind(at[0], trail.keys().namespace(), localQueue, trail.groupName())
                                    .chain(behind -> (judged ? judged(state, () -> judge.ofPod(at[0], clock.instant(), trail))
                                            : Uni.createFrom().<WaitDiagnosis>nullItem())
                                            .map(cause -> decision(at[0], "Pod", state, cause, trail.episodes(), null,
                                                    trail.trail(), Decision.Queue.of(behind.clusterQueue(), localQueue,
                                                            behind.volcanoQueue()))));
                        })));
    }

    /**
     * The queue each of a set of pods ("namespace/pod") went through, in the order asked: the queue part of each
     * pod's decision, read inside the ledger with bounded concurrency, so a caller places many pods in one request.
     */
    public Uni<List<PodQueue>> queuesOf(String cluster, List<String> podKeys) {
        return Multi.createFrom().iterable(podKeys)
                .onItem().transformToUni(key -> {
                    int slash = key.indexOf('/');
                    String namespace = key.substring(0, slash);
                    String pod = key.substring(slash + 1);
                    return ofPod(cluster, namespace, pod, false)
                            .map(d -> new PodQueue(namespace, pod, true, d.queue(), d.createdAt()))
                            .onFailure(e -> e instanceof ApiProblem p && p.status() == 404)
                            .recoverWithItem(new PodQueue(namespace, pod, false, null, null));
                }).merge(QUEUE_READS_AT_ONCE)
                .collect().asList()
                .map(found -> {
                    Map<String, PodQueue> byKey = new HashMap<>();
                    found.forEach(q -> byKey.put(q.namespace() + "/" + q.pod(), q));
                    return podKeys.stream().map(byKey::get).toList();
                });
    }

    /** Every ClusterQueue's rejection rate over workloads created in [from, to), and its quota use now. */
    public Uni<List<QueueReport>> clusterQueues(Instant from, Instant to, String cluster) {
        QueueWaitService.window(from, to);
        return source.latestQueueObjects(pool, QueueObjectKind.CLUSTER_QUEUE, cluster)
                .chain(queues -> books.kueueItems(from, to, cluster).chain(items -> books.waiting(cluster)
                        .map(waiting -> reports(queues, items, waiting))));
    }

    private static List<QueueReport> reports(List<GovernanceSourceRepository.Stored<QueueObjectFact>> queues, List<StoredItem> items, List<StoredItem> waiting) {
        Map<String, List<StoredItem>> byQueue = items.stream().filter(i -> i.clusterQueue() != null)
                .collect(Collectors.groupingBy(i -> i.cluster() + "/" + i.clusterQueue()));
        Map<String, Long> pendingNow = waiting.stream().filter(i -> i.clusterQueue() != null)
                .collect(Collectors.groupingBy(i -> i.cluster() + "/" + i.clusterQueue(), Collectors.counting()));
        List<QueueReport> out = new ArrayList<>();
        for (GovernanceSourceRepository.Stored<QueueObjectFact> stored : queues) {
            QueueObjectFact q = stored.fact();
            String key = stored.cluster() + "/" + q.name();
            List<StoredItem> mine = byQueue.getOrDefault(key, List.of());
            // a refusal Kueue took back by admitting the workload later was a wait, not a rejection
            int rejected = (int) mine.stream().filter(i -> i.rejections() > 0 && i.admissions() == 0).count();
            int refusedThenAdmitted = (int) mine.stream().filter(i -> i.rejections() > 0 && i.admissions() > 0).count();
            int admitted = (int) mine.stream().filter(i -> i.admissions() > 0).count();
            BigDecimal rate = mine.isEmpty() ? null : BigDecimal.valueOf(rejected)
                    .divide(BigDecimal.valueOf(mine.size()), 6, RoundingMode.HALF_EVEN).stripTrailingZeros();
            out.add(new QueueReport(key.substring(0, key.indexOf('/')), q.name(), q.cohort(), mine.size(), rejected, rate,
                    admitted, refusedThenAdmitted, pendingNow.getOrDefault(key, 0L).intValue(),
                    q.quotas().stream().map(SchedulingAuditService::quota).toList()));
        }
        out.sort(java.util.Comparator.comparing(QueueReport::name));
        return out;
    }

    private static QueueReport.Quota quota(QuotaLine l) {
        BigDecimal reserved = l.reserved() == null ? BigDecimal.ZERO : l.reserved();
        BigDecimal nominal = l.nominal() == null ? BigDecimal.ZERO : l.nominal();
        boolean borrowing = reserved.compareTo(nominal) > 0;
        boolean within = l.borrowingLimit() == null || reserved.compareTo(nominal.add(l.borrowingLimit())) <= 0;
        return new QueueReport.Quota(l.flavor(), l.resource(), l.nominal(), l.borrowingLimit(), l.lendingLimit(),
                l.reserved(), l.used(), l.borrowed(), borrowing, within);
    }

    private Uni<String[]> locate(String table, String field, String cluster, String namespace, String name) {
        if (namespace == null || namespace.isBlank()) {
            throw ApiProblem.badRequest("namespace", "namespace is required with " + field);
        }
        return source.locate(pool, table, cluster, namespace, name).map(found -> {
            if (found.isEmpty()) {
                throw ApiProblem.notFound(field, "no " + field + " '" + namespace + "/" + name + "' is in the ledger");
            }
            return found.get(0);
        });
    }

    private static Decision decision(String cluster, String kind, QueueState s, WaitDiagnosis cause,
                                     List<WaitEpisode> episodes, List<PodGroupTrail.Phase> phases, List<TrailEntry> trail,
                                     Decision.Queue queue) {
        List<Decision.Wait> waits = episodes.stream().map(e -> new Decision.Wait(e.waitFrom(), e.reservedAt(), e.admittedAt(),
                BigDecimal.valueOf(e.waitMillis(), 3).stripTrailingZeros(), e.requeued())).toList();
        io.gpumeter.common.triage.PendingReason cls = cause != null && cause.reason() != null ? cause.reason() : s.reasonClass();
        return new Decision(cluster, kind, s.keys().namespace(), s.keys().name(), s.keys().uid(), s.createdAt(), queue,
                s.state().name(), s.waitingSince(), cls == null ? null : cls.label(), cls == null ? null : cls.rootCause().label(), s.reason(),
                s.message(), s.rejections(), waits, phases, trail);
    }
}
