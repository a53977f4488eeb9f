package io.gpumeter.ledger.service;

import io.gpumeter.common.fact.ClusterName;
import io.gpumeter.common.fact.FactBatch;
import io.gpumeter.common.fact.IngestResult;
import io.gpumeter.common.fact.LivePodSet;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.common.fact.WatchEventType;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.ledger.history.domain.PodHistory;
import io.gpumeter.ledger.repository.AllocationRepository;
import io.gpumeter.ledger.repository.FactRepository;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Closes the allocations of pods deleted while no collector watched: each pod still held open but missing from a
 * relist gets a DELETED version at the list's resourceVersion, observed when the list was taken, so its end follows
 * the ordinary rule (the deletion, capped at when it was observed) and nothing stays open forever.
 */
@ApplicationScoped
public class LivePodSetService {

    private final Pool pool;
    private final FactRepository facts;
    private final AllocationRepository allocations;
    private final IngestService ingest;

    public LivePodSetService(Pool pool, FactRepository facts, AllocationRepository allocations, IngestService ingest) {
        this.pool = pool;
        this.facts = facts;
        this.allocations = allocations;
        this.ingest = ingest;
    }

    public Uni<IngestResult> reconcile(LivePodSet set) {
        if (set == null) {
            throw ApiProblem.badRequest("body", "a live pod set is required");
        }
        ClusterName.require("cluster", set.cluster());
        if (set.resourceVersion() == null || set.resourceVersion().isBlank()) {
            throw ApiProblem.badRequest("resourceVersion", "resourceVersion is required: the list's own version");
        }
        if (set.observedAt() == null) {
            throw ApiProblem.badRequest("observedAt", "observedAt is required");
        }
        Set<String> live = new HashSet<>(set.uids());
        return allocations.openPods(set.cluster(), set.observedAt(), set.namespaces())
                .map(open -> open.stream().filter(uid -> !live.contains(uid)).toList())
                .chain(vanished -> vanished.isEmpty() ? Uni.createFrom().item(new IngestResult(0, 0))
                        : pool.withConnection(conn -> facts.podVersions(conn, set.cluster(), vanished))
                                .chain(versions -> ingest.ingest(new FactBatch(set.cluster(), List.of(), List.of(),
                                        deletions(set, versions)))));
    }

    /** A DELETED version of each vanished pod's newest version, as the relist saw it. */
    private static List<PodFact> deletions(LivePodSet set, List<PodFact> versions) {
        Map<String, List<PodFact>> byPod = versions.stream().collect(Collectors.groupingBy(PodFact::uid));
        List<PodFact> out = new ArrayList<>();
        byPod.values().forEach(history -> {
            PodFact last = new PodHistory(history).latest();
            out.add(new PodFact(last.uid(), last.namespace(), last.name(), set.resourceVersion(), WatchEventType.DELETED,
                    set.observedAt(), last.createdAt(), last.scheduledAt(), last.nodeName(), last.phase(),
                    last.schedulerName(), last.allTerminated(), last.lastFinishedAt(), null, last.owner(), last.labels(),
                    last.gpuResources(), last.vgpus()).withHamiBinding(last.hamiBindPhase(), last.hamiNode()));
        });
        return out;
    }
}
