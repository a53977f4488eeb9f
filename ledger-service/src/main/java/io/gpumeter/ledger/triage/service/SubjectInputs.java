package io.gpumeter.ledger.triage.service;

import io.gpumeter.common.fact.EventFact;
import io.gpumeter.common.fact.LogSignalFact;
import io.gpumeter.common.fact.PodGroupFact;
import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.common.fact.WorkloadFact;
import io.gpumeter.ledger.governance.repository.GovernanceSourceRepository;
import io.gpumeter.ledger.triage.repository.PodVersionRepository;
import io.gpumeter.ledger.triage.repository.TriageInputRepository;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Supplier;

import static io.gpumeter.ledger.triage.service.GatheredInputs.upTo;

/**
 * A triage subject's own inputs: its pods' versions, events and log lines (and the nodes they ran on), the Workloads
 * of a pod's owner and the PodGroup it names, and each Workload's or PodGroup's versions and events.
 */
@ApplicationScoped
public class SubjectInputs {

    private final Pool pool;
    private final PodVersionRepository versions;
    private final TriageInputRepository inputs;
    private final GovernanceSourceRepository source;

    public SubjectInputs(Pool pool, PodVersionRepository versions, TriageInputRepository inputs,
                         GovernanceSourceRepository source) {
        this.pool = pool;
        this.versions = versions;
        this.inputs = inputs;
        this.source = source;
    }

    /** The pods' versions, events and log lines up to the instant, and the nodes they ran on. */
    Uni<Void> pods(GatheredInputs g, List<String> uids) {
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
    Uni<Void> owned(GatheredInputs g) {
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

    Uni<Void> workloads(GatheredInputs g, List<String> uids) {
        return queueObjects(g, uids, "Workload", () -> source.workloads(pool, g.cluster, uids), WorkloadFact::observedAt,
                w -> w.namespace() + "/" + w.name(), g.workloads);
    }

    Uni<Void> podGroups(GatheredInputs g, List<String> uids) {
        return queueObjects(g, uids, "PodGroup", () -> source.podGroups(pool, g.cluster, uids), PodGroupFact::observedAt,
                p -> p.namespace() + "/" + p.name(), g.podGroups);
    }

    /** Workloads' or PodGroups' versions up to the instant, into {@code into}, and the events about them. */
    private <T> Uni<Void> queueObjects(GatheredInputs g, List<String> uids, String kind,
                                       Supplier<Uni<List<T>>> read, Function<T, Instant> observedAt,
                                       Function<T, String> name, List<T> into) {
        if (uids.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return read.get().chain(all -> {
            List<T> kept = upTo(all, observedAt, g.at);
            into.addAll(kept);
            Set<String> names = new TreeSet<>();
            kept.forEach(f -> names.add(name.apply(f)));
            return source.eventsAbout(pool, g.cluster, kind, uids, names)
                    .invoke(events -> g.events.addAll(upTo(events, EventFact::firstAt, g.at))).replaceWithVoid();
        });
    }
}
