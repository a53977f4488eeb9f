package io.gpumeter.ledger.triage.service;

import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.common.fact.WatchEventType;
import io.gpumeter.common.fact.WorkloadFact;
import io.gpumeter.common.triage.Symptom;
import io.gpumeter.common.triage.Triage;
import io.gpumeter.common.triage.TriageRequest;
import io.gpumeter.ledger.governance.domain.PodTrail;
import io.gpumeter.ledger.governance.domain.QueueSource;
import io.gpumeter.ledger.governance.repository.GovernanceSourceRepository;
import io.gpumeter.ledger.governance.repository.PodStatusVersions;
import io.gpumeter.ledger.triage.pending.WaitDiagnosis;
import io.gpumeter.ledger.triage.pending.WaitJudge;
import io.gpumeter.ledger.triage.pending.Waiting;
import io.gpumeter.ledger.triage.service.AlikeWaits.Alike;
import io.gpumeter.ledger.triage.service.WaitTrails.GroupAt;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The PENDING branch of the diagnosis tree for a pod, Kueue Workload or PodGroup that waits at {@code at}: its trail
 * rebuilt from the versions and events stored by then ({@link WaitTrails}), its cause from the {@link WaitJudge} (the
 * one owner of why something waits, which the queue reads ask too), the other waits showing the same cause then
 * ({@link AlikeWaits}), and how often the same cause struck its owner in the seven days before ({@link WaitRecurrences}).
 */
@ApplicationScoped
public class PendingTriage {

    private final Pool pool;
    private final GovernanceSourceRepository source;
    private final WaitJudge judge;
    private final WaitTrails trails;
    private final AlikeWaits alike;
    private final WaitRecurrences recurrences;
    private final Composer composer;

    public PendingTriage(Pool pool, GovernanceSourceRepository source, WaitJudge judge, WaitTrails trails,
                         AlikeWaits alike, WaitRecurrences recurrences, Composer composer) {
        this.pool = pool;
        this.source = source;
        this.judge = judge;
        this.trails = trails;
        this.alike = alike;
        this.recurrences = recurrences;
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

    private Uni<Triage> pod(TriageRequest r, Instant at) {
        return source.locate(pool, PodStatusVersions.RELATION, r.cluster(), r.namespace(), r.name()).chain(found -> {
            if (found.isEmpty()) {
                return Uni.createFrom().nullItem();
            }
            String cluster = found.get(0)[0];
            String uid = found.get(0)[1];
            return trails.pods(cluster, Set.of(uid), at).chain(all -> {
                PodTrail trail = all.get(uid);
                if (trail == null || !waits(trail)) {
                    return Uni.createFrom().nullItem();
                }
                PodStatusFact latest = trail.latest();
                String key = WaitJudge.key(cluster, QueueSource.POD, uid);
                return judge.ofPod(cluster, at, trail).chain(d -> alike.of(cluster, at, key, d, null)
                        .chain(same -> recurrences.ofPod(cluster, at, key, trail, d, same.stillGoing())
                                .chain(recurrence -> answer(Triage.SubjectKind.POD, cluster, latest.namespace(), latest.name(),
                                        uid, at, d, same, recurrence))));
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
                || latest.reason() != null && Waiting.KUBELET_REFUSALS.contains(latest.reason());
    }

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
                return judge.ofWorkload(cluster, at, w.trail(), latest).chain(d -> alike.of(cluster, at, key, d, null)
                        .chain(same -> recurrences.ofWorkload(cluster, at, key, w, d, same.stillGoing())
                                .chain(recurrence -> answer(Triage.SubjectKind.WORKLOAD, cluster, latest.namespace(),
                                        latest.name(), uid, at, d, same, recurrence))));
            });
        });
    }

    private Uni<Triage> podGroup(TriageRequest r, Instant at) {
        return source.locate(pool, "gov_pod_group_fact", r.cluster(), r.namespace(), r.name()).chain(found -> {
            if (found.isEmpty()) {
                return Uni.createFrom().nullItem();
            }
            String cluster = found.get(0)[0];
            String uid = found.get(0)[1];
            return trails.podGroups(cluster, Set.of(uid), at).chain(groups -> {
                GroupAt g = groups.get(uid);
                if (g == null || g.latest().type() == WatchEventType.DELETED
                        || !WaitJudge.WAITING.contains(g.trail().state().state().name())) {
                    return Uni.createFrom().nullItem();
                }
                String key = WaitJudge.key(cluster, QueueSource.VOLCANO, uid);
                return judge.ofPodGroup(cluster, at, g.trail(), g.latest()).chain(d -> alike.of(cluster, at, key, d,
                                g.trail().keys().volcanoQueue() == null ? null : "vq:" + g.trail().keys().volcanoQueue())
                        .chain(same -> recurrences.ofPodGroup(cluster, at, key, g, d, same.stillGoing())
                                .chain(recurrence -> answer(Triage.SubjectKind.POD_GROUP, cluster, g.latest().namespace(),
                                        g.latest().name(), uid, at, d, same, recurrence))));
            });
        });
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
