package io.gpumeter.ledger.triage.service;

import io.gpumeter.common.fact.WorkloadFact;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.common.triage.InputBundle;
import io.gpumeter.common.triage.Triage.SubjectKind;
import io.gpumeter.common.triage.TriageRequest;
import io.gpumeter.ledger.triage.repository.PodVersionRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Clock;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;

/**
 * The facts a triage reads, as the ledger's intakes take them ({@link InputBundle}), so that a regression case replays
 * them into a fresh suite and triages to the same cause. The governance facts: the subject's pod views (a Workload's
 * or PodGroup's member pods'), their events and log lines, the Workloads and PodGroups of them ({@link SubjectInputs}),
 * and of the nodes they ran on the status versions, GPU-stack pods, Xid reports and card announcements, kernel OOM
 * events and driver sightings, the stack's workloads; for a subject that may wait, the fleet it waits against too
 * (each node's newest status, each stack pod's, each queue object's, the namespace's queue places; {@link FleetInputs}).
 * The metering facts the holdings were booked from and the cards' memory minutes ({@link MeteringInputs}). Only what
 * was stored up to {@code at}.
 */
@ApplicationScoped
public class TriageInputs {

    private final Clock clock;
    private final TriageSubjects subjects;
    private final PodVersionRepository versions;
    private final SubjectInputs own;
    private final FleetInputs fleet;
    private final MeteringInputs metering;

    public TriageInputs(Clock clock, TriageSubjects subjects, PodVersionRepository versions, SubjectInputs own,
                        FleetInputs fleet, MeteringInputs metering) {
        this.clock = clock;
        this.subjects = subjects;
        this.versions = versions;
        this.own = own;
        this.fleet = fleet;
        this.metering = metering;
    }

    public Uni<InputBundle> of(TriageRequest request) {
        if (request.kind() == SubjectKind.SERVICE) {
            throw ApiProblem.badRequest("service", "an inference service is triaged by slo-service, which holds its inputs");
        }
        Instant at = request.at() != null ? request.at() : clock.instant();
        return subjects.locate(request, at).chain(found -> {
            GatheredInputs g = new GatheredInputs(found.cluster(), at);
            return switch (request.kind()) {
                case NODE -> {
                    g.nodes.add(request.name());
                    yield all(g);
                }
                case POD -> {
                    g.namespace = request.namespace();
                    yield own.pods(g, List.of(found.uid())).chain(() -> own.owned(g)).chain(() -> all(g));
                }
                default -> group(request, found.uid(), g);
            };
        });
    }

    /** A Workload (its owner's pods) or a PodGroup (the pods that name it), which may wait. */
    private Uni<InputBundle> group(TriageRequest request, String uid, GatheredInputs g) {
        g.namespace = request.namespace();
        g.mayWait = true;
        Uni<List<String>> members;
        if (request.kind() == SubjectKind.WORKLOAD) {
            members = own.workloads(g, List.of(uid)).chain(() -> {
                WorkloadFact newest = g.workloads.stream().max(Comparator.comparing(WorkloadFact::observedAt)).orElse(null);
                return newest == null || newest.owner() == null || newest.owner().name() == null
                        ? Uni.createFrom().item(List.<String>of())
                        : versions.ownerPods(g.cluster, g.namespace, newest.owner().kind(), newest.owner().name());
            });
        } else {
            members = own.podGroups(g, List.of(uid)).chain(() -> versions.groupPods(g.cluster, g.namespace, request.name()));
        }
        return members.chain(uids -> own.pods(g, uids)).chain(() -> all(g));
    }

    /** The nodes' and the fleet's governance facts, then the metering facts and usage beside them. */
    private Uni<InputBundle> all(GatheredInputs g) {
        return fleet.batch(g).chain(governance -> metering.bundle(g, governance));
    }
}
