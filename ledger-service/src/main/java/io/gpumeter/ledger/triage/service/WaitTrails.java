package io.gpumeter.ledger.triage.service;

import io.gpumeter.common.fact.EventFact;
import io.gpumeter.common.fact.PodGroupFact;
import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.ledger.governance.domain.PodGroupTrail;
import io.gpumeter.ledger.governance.domain.PodTrail;
import io.gpumeter.ledger.governance.repository.GovernanceSourceRepository;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The trails of pods and PodGroups as they stood at an instant, rebuilt from the versions observed and the events
 * first seen by then, two reads for any number of them (a Workload's is the {@link io.gpumeter.ledger.triage.pending.WaitJudge}'s).
 */
@ApplicationScoped
public class WaitTrails {

    private final Pool pool;
    private final GovernanceSourceRepository source;

    public WaitTrails(Pool pool, GovernanceSourceRepository source) {
        this.pool = pool;
        this.source = source;
    }

    /** Each pod's trail from its versions observed by {@code at} and the events first seen by then. */
    public Uni<Map<String, PodTrail>> pods(String cluster, Set<String> uids, Instant at) {
        return source.pods(pool, cluster, uids).chain(all -> {
            List<PodStatusFact> versions = all.stream().filter(v -> v.observedAt() == null || !v.observedAt().isAfter(at)).toList();
            Set<String> names = versions.stream().map(v -> v.namespace() + "/" + v.name()).collect(Collectors.toSet());
            return source.eventsAbout(pool, cluster, "Pod", uids, names).map(events -> {
                Map<String, List<PodStatusFact>> byUid = versions.stream().collect(Collectors.groupingBy(PodStatusFact::uid));
                Map<String, PodTrail> out = new HashMap<>();
                byUid.forEach((uid, vs) -> {
                    PodStatusFact any = vs.get(0);
                    out.put(uid, new PodTrail(vs, before(events, at, uid, any.namespace(), any.name())));
                });
                return out;
            });
        });
    }

    /** A PodGroup's trail and its newest version by the instant. */
    public record GroupAt(PodGroupTrail trail, PodGroupFact latest) {
    }

    /** Each PodGroup's trail from its versions observed by {@code at} and the events first seen by then. */
    public Uni<Map<String, GroupAt>> podGroups(String cluster, Set<String> uids, Instant at) {
        return source.podGroups(pool, cluster, uids).chain(all -> {
            List<PodGroupFact> versions = all.stream().filter(v -> !v.observedAt().isAfter(at)).toList();
            Set<String> names = versions.stream().map(v -> v.namespace() + "/" + v.name()).collect(Collectors.toSet());
            return source.eventsAbout(pool, cluster, "PodGroup", uids, names).map(events -> {
                Map<String, GroupAt> out = new HashMap<>();
                versions.stream().collect(Collectors.groupingBy(PodGroupFact::uid)).forEach((uid, vs) -> {
                    PodGroupFact latest = vs.stream().max(Comparator.comparing(PodGroupFact::observedAt)).orElseThrow();
                    out.put(uid, new GroupAt(new PodGroupTrail(vs, before(events, at, uid, latest.namespace(), latest.name())),
                            latest));
                });
                return out;
            });
        });
    }

    /** The events about one object first seen by the instant. */
    private static List<EventFact> before(List<EventFact> events, Instant at, String uid, String namespace, String name) {
        return events.stream().filter(e -> uid.equals(e.involvedUid())
                        || e.involvedUid() == null && namespace.equals(e.involvedNamespace()) && name.equals(e.involvedName()))
                .filter(e -> e.firstAt() == null || !e.firstAt().isAfter(at)).toList();
    }
}
