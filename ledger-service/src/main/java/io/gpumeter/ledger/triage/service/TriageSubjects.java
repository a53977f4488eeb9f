package io.gpumeter.ledger.triage.service;

import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.common.triage.Triage.SubjectKind;
import io.gpumeter.common.triage.TriageRequest;
import io.gpumeter.ledger.triage.repository.SubjectRepository.Located;
import io.gpumeter.ledger.triage.repository.SubjectRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Which stored object a triage's request names at its instant, for the diagnosis and its inputs alike: the newest of
 * that name seen by then (a pod of that name made again later is another), else a 404 naming the field.
 */
@ApplicationScoped
public class TriageSubjects {

    private final SubjectRepository subjects;

    public TriageSubjects(SubjectRepository subjects) {
        this.subjects = subjects;
    }

    /** The pod, Kueue Workload, PodGroup or node the request names, as it stood at {@code at}. */
    public Uni<Located> locate(TriageRequest request, Instant at) {
        Uni<List<Located>> found = switch (request.kind()) {
            case POD -> subjects.locatePod(request.cluster(), request.namespace(), request.name());
            case WORKLOAD -> subjects.locate("gov_workload_fact", request.cluster(), request.namespace(), request.name());
            case POD_GROUP -> subjects.locate("gov_pod_group_fact", request.cluster(), request.namespace(), request.name());
            case NODE -> subjects.locateNode(request.cluster(), request.name());
            case SERVICE -> throw new IllegalArgumentException("the ledger locates no service");
        };
        return found.map(all -> pick(all, at).orElseThrow(() -> notFound(request, at, !all.isEmpty())));
    }

    /** Of the objects of one name, the newest seen by {@code at}: a pod of that name made again later is another. */
    static Optional<Located> pick(List<Located> found, Instant at) {
        return found.stream().filter(l -> l.firstSeen() == null || !l.firstSeen().isAfter(at))
                .max(Comparator.comparing(Located::lastSeen, Comparator.nullsFirst(Comparator.naturalOrder())));
    }

    private static ApiProblem notFound(TriageRequest r, Instant at, boolean laterOnly) {
        String field = r.kind().parameter();
        String named = r.kind() == SubjectKind.NODE ? r.name() : r.namespace() + "/" + r.name();
        return ApiProblem.notFound(field, "no " + field + " '" + named + "'" + (r.cluster() == null ? ""
                : " of cluster " + r.cluster()) + " is in the ledger" + (laterOnly ? " at or before " + at : ""));
    }
}
