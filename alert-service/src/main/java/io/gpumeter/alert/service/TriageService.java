package io.gpumeter.alert.service;

import io.gpumeter.alert.client.DiagnosisClient;
import io.gpumeter.alert.domain.TenantCut;
import io.gpumeter.common.client.Answers;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.common.triage.Triage;
import io.gpumeter.common.triage.TriageRequest;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * A triage (ADR 19): the diagnosis of the service that holds the subject, with the runbook's entry for its cause as
 * the fix, and for a tenant only about the tenant's own subject, cut so that it names no other tenant's objects.
 * It reads, and writes nothing.
 */
@ApplicationScoped
public class TriageService {

    private final DiagnosisClient diagnoses;
    private final CauseRunbook runbook;

    public TriageService(DiagnosisClient diagnoses, CauseRunbook runbook) {
        this.diagnoses = diagnoses;
        this.runbook = runbook;
    }

    /**
     * @param tenant the tenant the answer is for (a tenant token's, which the access filter puts there), or null for
     *               the whole answer
     */
    public Uni<Triage> triage(TriageRequest request, String tenant) {
        if (tenant != null && request.kind() == Triage.SubjectKind.NODE) {
            return Uni.createFrom().failure(unknown(request)); // a node is no tenant's
        }
        String service = DiagnosisClient.service(request);
        return diagnoses.diagnose(request)
                .onFailure(e -> !(e instanceof ApiProblem)).transform(e -> ApiProblem.unavailable(
                        service + " did not answer the triage (" + Answers.reason(e) + "); try again"))
                .map(diagnosis -> {
                    if (diagnosis.refused() != null) {
                        // to a tenant, any subject it may not see is one nobody knows, worded the same
                        throw tenant != null && diagnosis.refused().status() == 404 ? unknown(request) : diagnosis.refused();
                    }
                    Triage answer = diagnosis.answer();
                    if (answer == null) {
                        throw new ApiProblem(502, "Bad Gateway", null, service + " answered no diagnosis");
                    }
                    if (tenant != null) {
                        answer = TenantCut.of(answer, tenant).orElseThrow(() -> unknown(request));
                    }
                    return answer.withFix(runbook.fix(answer.cause()).orElse(null));
                });
    }

    /** The one answer for a subject that is unknown, or not the tenant's. */
    static ApiProblem unknown(TriageRequest r) {
        String field = r.kind().parameter();
        String noun = switch (r.kind()) {
            case POD -> "pod";
            case WORKLOAD -> "Kueue Workload";
            case POD_GROUP -> "PodGroup";
            case NODE -> "node";
            case SERVICE -> "inference service";
        };
        String subject = r.namespace() == null ? r.name() : r.namespace() + "/" + r.name();
        return ApiProblem.notFound(field, "no " + noun + " " + subject + " is known"
                + (r.cluster() == null ? "" : " in cluster " + r.cluster()));
    }
}
