package io.gpumeter.ledger.triage.service;

import io.gpumeter.common.fact.Owner;
import io.gpumeter.common.triage.Triage;
import io.gpumeter.ledger.governance.domain.PodTrail;
import io.gpumeter.ledger.governance.domain.QueueSource;
import io.gpumeter.ledger.governance.domain.QueueState;
import io.gpumeter.ledger.triage.pending.Recurrences;
import io.gpumeter.ledger.triage.pending.WaitDiagnosis;
import io.gpumeter.ledger.triage.pending.WaitFactsRepository;
import io.gpumeter.ledger.triage.pending.WaitJudge;
import io.gpumeter.ledger.triage.service.WaitTrails.GroupAt;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * How often a wait's cause struck its owner in the seven days before the instant ({@link Recurrences}): the waits of
 * the owner's pods, Workloads or PodGroups, each read from its trail as it stood then, the subject's own among them.
 */
@ApplicationScoped
public class WaitRecurrences {

    private final WaitFactsRepository facts;
    private final WaitJudge judge;
    private final WaitTrails trails;

    public WaitRecurrences(WaitFactsRepository facts, WaitJudge judge, WaitTrails trails) {
        this.facts = facts;
        this.judge = judge;
        this.trails = trails;
    }

    /** @param stillGoing the cause of every wait going on at the instant, keyed {@link WaitJudge#key} */
    public Uni<Triage.Recurrence> ofPod(String cluster, Instant at, String key, PodTrail trail, WaitDiagnosis d,
                                        Map<String, WaitDiagnosis> stillGoing) {
        Owner owner = trail.latest().owner();
        String told = told(trail.state());
        if (owner == null) {
            return Uni.createFrom().item(Recurrences.count(at, key, d, told, waitsOf(key, trail), stillGoing));
        }
        return facts.podsOwnedBy(cluster, trail.latest().namespace(), owner.kind(), owner.name())
                .chain(uids -> trails.pods(cluster, new LinkedHashSet<>(uids), at))
                .map(owned -> {
                    List<Recurrences.Wait> waits = new ArrayList<>();
                    owned.forEach((uid, t) -> waits.addAll(waitsOf(WaitJudge.key(cluster, QueueSource.POD, uid), t)));
                    if (!owned.containsKey(trail.latest().uid())) {
                        waits.addAll(waitsOf(key, trail));
                    }
                    return Recurrences.count(at, key, d, told, waits, stillGoing);
                });
    }

    private static List<Recurrences.Wait> waitsOf(String key, PodTrail t) {
        return Recurrences.of(key, t.episodes(), t.trail(), t.state());
    }

    public Uni<Triage.Recurrence> ofWorkload(String cluster, Instant at, String key, WaitJudge.WorkloadAt w,
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

    public Uni<Triage.Recurrence> ofPodGroup(String cluster, Instant at, String key, GroupAt g, WaitDiagnosis d,
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
                .chain(uids -> trails.podGroups(cluster, new LinkedHashSet<>(uids), at))
                .map(groups -> {
                    List<Recurrences.Wait> waits = new ArrayList<>();
                    groups.entrySet().forEach(e -> waits.addAll(waitsOf.apply(e)));
                    if (!groups.containsKey(g.latest().uid())) {
                        waits.addAll(waitsOf.apply(Map.entry(g.latest().uid(), g)));
                    }
                    return Recurrences.count(at, key, d, told, waits, stillGoing);
                });
    }

    private static String told(QueueState state) {
        return state.reasonClass() == null ? null : state.reasonClass().label();
    }
}
