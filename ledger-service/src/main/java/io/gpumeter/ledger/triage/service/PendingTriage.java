package io.gpumeter.ledger.triage.service;

import io.gpumeter.common.fact.EventFact;
import io.gpumeter.common.fact.Owner;
import io.gpumeter.common.fact.PodGroupFact;
import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.common.fact.WatchEventType;
import io.gpumeter.common.fact.WorkloadFact;
import io.gpumeter.common.triage.Symptom;
import io.gpumeter.common.triage.Triage;
import io.gpumeter.common.triage.TriageRequest;
import io.gpumeter.ledger.governance.domain.PodGroupTrail;
import io.gpumeter.ledger.governance.domain.PodTrail;
import io.gpumeter.ledger.governance.domain.QueueSource;
import io.gpumeter.ledger.governance.domain.QueueState;
import io.gpumeter.ledger.governance.repository.GovernanceSourceRepository;
import io.gpumeter.ledger.governance.repository.PodStatusVersions;
import io.gpumeter.ledger.governance.repository.QueueBookRepository;
import io.gpumeter.ledger.governance.repository.QueueBookRepository.StoredItem;
import io.gpumeter.ledger.triage.pending.Recurrences;
import io.gpumeter.ledger.triage.pending.WaitDiagnosis;
import io.gpumeter.ledger.triage.pending.WaitFactsRepository;
import io.gpumeter.ledger.triage.pending.WaitJudge;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The PENDING branch of the diagnosis tree for a pod, Kueue Workload or PodGroup that waits at {@code at}: its trail
 * rebuilt from the versions and events stored by then, its cause from the {@link WaitJudge} (the one owner of why
 * something waits, which the queue reads ask too), the other waits showing the same cause then, and how often the same
 * cause struck its owner in the seven days before.
 */
@ApplicationScoped
public class PendingTriage {

    /** The pod status reasons of a kubelet that refused a placed pod, which never starts. */
    static final Set<String> KUBELET_REFUSALS = Set.of("TopologyAffinityError", "UnexpectedAdmissionError");

    private final Pool pool;
    private final GovernanceSourceRepository source;
    private final QueueBookRepository books;
    private final WaitFactsRepository facts;
    private final WaitJudge judge;
    private final Composer composer;

    public PendingTriage(Pool pool, GovernanceSourceRepository source, QueueBookRepository books,
                         WaitFactsRepository facts, WaitJudge judge, Composer composer) {
        this.pool = pool;
        this.source = source;
        this.books = books;
        this.facts = facts;
        this.judge = judge;
        this.composer = composer;
    }

    /**
     * The PENDING diagnosis of the subject, or a null item when it was not waiting at {@code at}. The answer's
     * {@code changes} are left empty (the caller adds the change book's entries for every symptom alike).
     */
    public Uni<Triage> diagnose(TriageRequest request, Instant at) {
        return switch (request.kind()) {
            case POD -> pod(request, at);
            case WORKLOAD -> workload(request, at);
            case POD_GROUP -> podGroup(request, at);
            case NODE, SERVICE -> Uni.createFrom().nullItem(); // neither waits in a queue
        };
    }

    // ---- a pod ----

    private Uni<Triage> pod(TriageRequest r, Instant at) {
        return source.locate(pool, PodStatusVersions.RELATION, r.cluster(), r.namespace(), r.name()).chain(found -> {
            if (found.isEmpty()) {
                return Uni.createFrom().nullItem();
            }
            String cluster = found.get(0)[0];
            String uid = found.get(0)[1];
            return podTrails(cluster, Set.of(uid), at).chain(trails -> {
                PodTrail trail = trails.get(uid);
                if (trail == null || !waits(trail)) {
                    return Uni.createFrom().nullItem();
                }
                PodStatusFact latest = trail.latest();
                String key = WaitJudge.key(cluster, QueueSource.POD, uid);
                return judge.ofPod(cluster, at, trail).chain(d -> alike(cluster, at, key, d, null)
                        .chain(alike -> podRecurrence(cluster, at, key, trail, d, alike.stillGoing())
                                .chain(recurrence -> answer(Triage.SubjectKind.POD, cluster, latest.namespace(), latest.name(),
                                        uid, at, d, alike, recurrence))));
            });
        });
    }

    /** Waiting at the instant, or refused by the kubelet where the scheduler placed it, so it never started. */
    private static boolean waits(PodTrail trail) {
        PodStatusFact latest = trail.latest();
        if (latest.type() == WatchEventType.DELETED) {
            return false;
        }
        return WaitJudge.WAITING.contains(trail.state().state().name())
                || latest.reason() != null && KUBELET_REFUSALS.contains(latest.reason());
    }

    /** Each pod's trail from its versions observed by {@code at} and the events first seen by then. */
    private Uni<Map<String, PodTrail>> podTrails(String cluster, Set<String> uids, Instant at) {
        return source.pods(pool, cluster, uids).chain(all -> {
            List<PodStatusFact> versions = all.stream().filter(v -> v.observedAt() == null || !v.observedAt().isAfter(at)).toList();
            Set<String> names = versions.stream().map(v -> v.namespace() + "/" + v.name()).collect(Collectors.toSet());
            return source.eventsAbout(pool, cluster, "Pod", uids, names).map(events -> {
                Map<String, List<PodStatusFact>> byUid = versions.stream().collect(Collectors.groupingBy(PodStatusFact::uid));
                Map<String, PodTrail> out = new java.util.HashMap<>();
                byUid.forEach((uid, vs) -> {
                    PodStatusFact any = vs.get(0);
                    out.put(uid, new PodTrail(vs, before(events, at, uid, any.namespace(), any.name())));
                });
                return out;
            });
        });
    }

    private Uni<Triage.Recurrence> podRecurrence(String cluster, Instant at, String key, PodTrail trail, WaitDiagnosis d,
                                                 Map<String, WaitDiagnosis> stillGoing) {
        Owner owner = trail.latest().owner();
        String told = told(trail.state());
        if (owner == null) {
            return Uni.createFrom().item(Recurrences.count(at, key, d, told, waitsOf(key, trail), stillGoing));
        }
        return facts.podsOwnedBy(cluster, trail.latest().namespace(), owner.kind(), owner.name())
                .chain(uids -> podTrails(cluster, new LinkedHashSet<>(uids), at))
                .map(trails -> {
                    List<Recurrences.Wait> waits = new ArrayList<>();
                    trails.forEach((uid, t) -> waits.addAll(waitsOf(WaitJudge.key(cluster, QueueSource.POD, uid), t)));
                    if (!trails.containsKey(trail.latest().uid())) {
                        waits.addAll(waitsOf(key, trail));
                    }
                    return Recurrences.count(at, key, d, told, waits, stillGoing);
                });
    }

    private static List<Recurrences.Wait> waitsOf(String key, PodTrail t) {
        return Recurrences.of(key, t.episodes(), t.trail(), t.state());
    }

    // ---- a Kueue Workload ----

    private Uni<Triage> workload(TriageRequest r, Instant at) {
        return source.locate(pool, "gov_workload_fact", r.cluster(), r.namespace(), r.name()).chain(found -> {
            if (found.isEmpty()) {
                return Uni.createFrom().nullItem();
            }
            String cluster = found.get(0)[0];
            String uid = found.get(0)[1];
            return judge.workloadAt(cluster, at, uid).chain(w -> {
                if (w == null || w.latest().type() == WatchEventType.DELETED
                        || !WaitJudge.WAITING.contains(w.trail().state().state().name())) {
                    return Uni.createFrom().nullItem();
                }
                WorkloadFact latest = w.latest();
                String key = WaitJudge.key(cluster, QueueSource.KUEUE, uid);
                return judge.ofWorkload(cluster, at, w.trail(), latest).chain(d -> alike(cluster, at, key, d, null)
                        .chain(alike -> workloadRecurrence(cluster, at, key, w, d, alike.stillGoing())
                                .chain(recurrence -> answer(Triage.SubjectKind.WORKLOAD, cluster, latest.namespace(),
                                        latest.name(), uid, at, d, alike, recurrence))));
            });
        });
    }

    private Uni<Triage.Recurrence> workloadRecurrence(String cluster, Instant at, String key, WaitJudge.WorkloadAt w,
                                                      WaitDiagnosis d, Map<String, WaitDiagnosis> stillGoing) {
        String told = told(w.trail().state());
        List<Recurrences.Wait> own = Recurrences.of(key, w.trail().episodes(), w.trail().trail(), w.trail().state());
        Owner owner = w.latest().owner();
        if (owner == null) {
            return Uni.createFrom().item(Recurrences.count(at, key, d, told, own, stillGoing));
        }
        return facts.workloadsOwnedBy(cluster, w.latest().namespace(), owner.kind(), owner.name())
                .chain(uids -> Multi.createFrom().iterable(uids.stream().filter(u -> !u.equals(w.latest().uid())).toList())
                        .onItem().transformToUniAndConcatenate(u -> judge.workloadAt(cluster, at, u)
                                .map(s -> s == null ? List.<Recurrences.Wait>of() : Recurrences.of(
                                        WaitJudge.key(cluster, QueueSource.KUEUE, u), s.trail().episodes(), s.trail().trail(),
                                        s.trail().state())))
                        .collect().asList())
                .map(others -> {
                    List<Recurrences.Wait> waits = new ArrayList<>(own);
                    others.forEach(waits::addAll);
                    return Recurrences.count(at, key, d, told, waits, stillGoing);
                });
    }

    // ---- a Volcano PodGroup ----

    private Uni<Triage> podGroup(TriageRequest r, Instant at) {
        return source.locate(pool, "gov_pod_group_fact", r.cluster(), r.namespace(), r.name()).chain(found -> {
            if (found.isEmpty()) {
                return Uni.createFrom().nullItem();
            }
            String cluster = found.get(0)[0];
            String uid = found.get(0)[1];
            return groupTrails(cluster, Set.of(uid), at).chain(groups -> {
                GroupAt g = groups.get(uid);
                if (g == null || g.latest().type() == WatchEventType.DELETED
                        || !WaitJudge.WAITING.contains(g.trail().state().state().name())) {
                    return Uni.createFrom().nullItem();
                }
                String key = WaitJudge.key(cluster, QueueSource.VOLCANO, uid);
                return judge.ofPodGroup(cluster, at, g.trail(), g.latest()).chain(d -> alike(cluster, at, key, d,
                                g.trail().keys().volcanoQueue() == null ? null : "vq:" + g.trail().keys().volcanoQueue())
                        .chain(alike -> groupRecurrence(cluster, at, key, g, d, alike.stillGoing())
                                .chain(recurrence -> answer(Triage.SubjectKind.POD_GROUP, cluster, g.latest().namespace(),
                                        g.latest().name(), uid, at, d, alike, recurrence))));
            });
        });
    }

    private record GroupAt(PodGroupTrail trail, PodGroupFact latest) {
    }

    private Uni<Map<String, GroupAt>> groupTrails(String cluster, Set<String> uids, Instant at) {
        return source.podGroups(pool, cluster, uids).chain(all -> {
            List<PodGroupFact> versions = all.stream().filter(v -> !v.observedAt().isAfter(at)).toList();
            Set<String> names = versions.stream().map(v -> v.namespace() + "/" + v.name()).collect(Collectors.toSet());
            return source.eventsAbout(pool, cluster, "PodGroup", uids, names).map(events -> {
                Map<String, GroupAt> out = new java.util.HashMap<>();
                versions.stream().collect(Collectors.groupingBy(PodGroupFact::uid)).forEach((uid, vs) -> {
                    PodGroupFact latest = vs.stream().max(Comparator.comparing(PodGroupFact::observedAt)).orElseThrow();
                    out.put(uid, new GroupAt(new PodGroupTrail(vs, before(events, at, uid, latest.namespace(), latest.name())),
                            latest));
                });
                return out;
            });
        });
    }

    private Uni<Triage.Recurrence> groupRecurrence(String cluster, Instant at, String key, GroupAt g, WaitDiagnosis d,
                                                   Map<String, WaitDiagnosis> stillGoing) {
        String told = told(g.trail().state());
        Function<Map.Entry<String, GroupAt>, List<Recurrences.Wait>> waitsOf = e -> Recurrences.of(
                WaitJudge.key(cluster, QueueSource.VOLCANO, e.getKey()), e.getValue().trail().episodes(),
                e.getValue().trail().trail(), e.getValue().trail().state());
        Owner owner = g.latest().owner();
        if (owner == null) {
            return Uni.createFrom().item(Recurrences.count(at, key, d, told,
                    waitsOf.apply(Map.entry(g.latest().uid(), g)), stillGoing));
        }
        return facts.podGroupsOwnedBy(cluster, g.latest().namespace(), owner.kind(), owner.name())
                .chain(uids -> groupTrails(cluster, new LinkedHashSet<>(uids), at))
                .map(groups -> {
                    List<Recurrences.Wait> waits = new ArrayList<>();
                    groups.entrySet().forEach(e -> waits.addAll(waitsOf.apply(e)));
                    if (!groups.containsKey(g.latest().uid())) {
                        waits.addAll(waitsOf.apply(Map.entry(g.latest().uid(), g)));
                    }
                    return Recurrences.count(at, key, d, told, waits, stillGoing);
                });
    }

    // ---- shared ----

    /** The events about one object first seen by the instant. */
    private static List<EventFact> before(List<EventFact> events, Instant at, String uid, String namespace, String name) {
        return events.stream().filter(e -> uid.equals(e.involvedUid())
                        || e.involvedUid() == null && namespace.equals(e.involvedNamespace()) && name.equals(e.involvedName()))
                .filter(e -> e.firstAt() == null || !e.firstAt().isAfter(at)).toList();
    }

    private static String told(QueueState state) {
        return state.reasonClass() == null ? null : state.reasonClass().label();
    }

    /** The other waits showing the same cause at the instant, and the cause of every wait going on then. */
    private record Alike(List<String> names, List<Triage.Named> named, Map<String, WaitDiagnosis> stillGoing) {
    }

    /**
     * What else waits at the instant with the same cause, judged by the same tree in one bulk pass over the queue
     * book: within the same queue for a queue's cause, on a shared node for a node's, anywhere in the cluster else.
     * The book holds what waits now: a wait that ended between the instant and now is not among them.
     */
    private Uni<Alike> alike(String cluster, Instant at, String self, WaitDiagnosis d, String queueOfSelf) {
        return books.waiting(cluster).chain(all -> {
            List<StoredItem> items = all.stream().filter(i -> i.waitingSince() == null || !i.waitingSince().isAfter(at))
                    .toList();
            return judge.ofStored(cluster, at, items).map(causes -> {
                String queue = queueOfSelf;
                for (StoredItem i : items) {
                    if (WaitJudge.key(i.cluster(), i.source(), i.uid()).equals(self) && queue == null) {
                        queue = queueOf(i);
                    }
                }
                List<String> names = new ArrayList<>();
                List<Triage.Named> named = new ArrayList<>();
                for (StoredItem i : items) {
                    String key = WaitJudge.key(i.cluster(), i.source(), i.uid());
                    WaitDiagnosis other = causes.get(key);
                    if (key.equals(self) || other == null || !other.cause().equals(d.cause())) {
                        continue;
                    }
                    boolean near = switch (d.scope()) {
                        case "QUEUE" -> queue == null || queue.equals(queueOf(i));
                        case "NODE" -> d.nodes().isEmpty() || other.nodes().stream().anyMatch(d.nodes()::contains);
                        default -> true;
                    };
                    if (near) {
                        names.add(i.namespace() + "/" + i.name());
                        named.add(new Triage.Named(kindOf(i.source()), i.namespace(), i.name(), null));
                    }
                }
                return new Alike(names.stream().distinct().sorted().toList(), named, causes);
            });
        });
    }

    private static Triage.SubjectKind kindOf(QueueSource source) {
        return switch (source) {
            case POD -> Triage.SubjectKind.POD;
            case KUEUE -> Triage.SubjectKind.WORKLOAD;
            case VOLCANO -> Triage.SubjectKind.POD_GROUP;
        };
    }

    private static String queueOf(StoredItem i) {
        return i.clusterQueue() != null ? "cq:" + i.clusterQueue() : i.volcanoQueue() != null ? "vq:" + i.volcanoQueue() : null;
    }

    /**
     * The answer, listing every pod and workload it names with its tenant (the subject, those alike, the ones its
     * evidence names), so that alert-service can cut a tenant's answer from it.
     */
    private Uni<Triage> answer(Triage.SubjectKind kind, String cluster, String namespace, String name, String uid,
                               Instant at, WaitDiagnosis d, Alike alike, Triage.Recurrence recurrence) {
        List<Triage.Named> named = new ArrayList<>();
        named.add(new Triage.Named(kind, namespace, name, null));
        named.addAll(alike.named());
        named.addAll(d.named());
        return composer.withTenants(cluster, at, named).map(marked -> {
            String tenant = marked.stream().filter(n -> n.kind() == kind && namespace.equals(n.namespace())
                    && name.equals(n.name())).map(Triage.Named::tenant).findFirst().orElse(null);
            return new Triage(new Triage.Subject(kind, cluster, namespace, name, uid, tenant), at, Symptom.PENDING,
                    d.layer().label(), d.cause(), d.confidence(), new Triage.Scope(d.scope(), alike.names(), 0), List.of(),
                    recurrence, d.evidence(), d.alternatives(), d.checked(), null, marked);
        });
    }
}
