package io.gpumeter.alert.client;

import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.common.problem.Problem;
import io.gpumeter.common.triage.Triage;
import io.gpumeter.common.triage.TriageRequest;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.rest.client.inject.RestClient;

import java.util.Optional;

/**
 * Asks the one service that holds a triage's subject for its diagnosis — the ledger for pods, Workloads, PodGroups and
 * nodes, slo-service for inference services — with alert-service's own token, a timeout, retries and a circuit
 * breaker. A refusal is answered, not thrown, so that neither the retries nor the breaker count the caller's mistake
 * against the service: its 404 naming the subject and its 400 naming the field are the caller's to see as they came.
 */
@ApplicationScoped
@Timeout
@Retry
@CircuitBreaker
public class DiagnosisClient {

    /** The diagnosis, or null and the problem to answer instead. */
    public record Diagnosis(Triage answer, ApiProblem refused) {
    }

    private static final int MAX_DETAIL = 500;
    /** What a service's framework says for a path it has no endpoint at (common's ProblemMapper). */
    private static final String NO_ENDPOINT = "There is nothing at this path.";

    private final LedgerDiagnosisRestClient ledger;
    private final SloDiagnosisRestClient slo;

    public DiagnosisClient(@RestClient LedgerDiagnosisRestClient ledger, @RestClient SloDiagnosisRestClient slo) {
        this.ledger = ledger;
        this.slo = slo;
    }

    /** The service that diagnoses the request's subject, as its problems name it. */
    public static String service(TriageRequest request) {
        return request.kind() == Triage.SubjectKind.SERVICE ? "slo-service" : "the ledger";
    }

    public Uni<Diagnosis> diagnose(TriageRequest r) {
        String at = r.at() == null ? null : r.at().toString();
        Uni<Triage> call = r.kind() == Triage.SubjectKind.SERVICE ? slo.diagnosis(r.namespace(), r.name(), r.cluster(), at)
                : ledger.diagnosis(r.namespace(), r.nameIf(Triage.SubjectKind.POD), r.nameIf(Triage.SubjectKind.WORKLOAD),
                r.nameIf(Triage.SubjectKind.POD_GROUP), r.nameIf(Triage.SubjectKind.NODE), r.cluster(), at);
        String service = service(r);
        return call.map(answer -> new Diagnosis(answer, null))
                .onFailure(DiagnosisClient::refused).recoverWithItem(e -> new Diagnosis(null, problem(service, e)));
    }

    /** A 4xx (this request's, or alert-service's own token) or a 500 (fails the same way again): not retried. */
    private static boolean refused(Throwable e) {
        int status = status(e);
        return status >= 400 && status <= 500;
    }

    /** A service's refusal as alert-service's answer. */
    static ApiProblem problem(String service, Throwable e) {
        Response r = ((WebApplicationException) e).getResponse();
        int status = r.getStatus();
        Optional<Problem> body = problem(r);
        String field = body.map(Problem::field).map(DiagnosisClient::cut).orElse(null);
        String detail = body.map(Problem::detail).map(DiagnosisClient::cut).orElse(null);
        if (status == 404 && (field != null || detail != null && !detail.equals(NO_ENDPOINT))) {
            return new ApiProblem(404, "Not Found", field, detail);
        }
        if (status == 400) {
            return ApiProblem.badRequest(field, detail != null ? detail : service + " refused the triage's parameters");
        }
        if (status == 404) {
            return ApiProblem.unavailable(service + " answers no triage diagnosis (GET /api/v1/triage/diagnosis is "
                    + "HTTP 404 there): it may be a version without triage");
        }
        if (status == 401 || status == 403) {
            return ApiProblem.unavailable(service + " refused alert-service's own token (HTTP " + status + "): "
                    + "gpumeter.auth.service-token must be a service token whose aud names " + id(service));
        }
        if (status == 500) {
            return new ApiProblem(502, "Bad Gateway", null, service + " failed on this triage (an internal error, "
                    + "logged by " + service + ")");
        }
        return new ApiProblem(502, "Bad Gateway", null, service + " refused the triage (HTTP " + status + ")"
                + (detail == null ? "" : ": " + detail));
    }

    private static String id(String service) {
        return service.equals("slo-service") ? "slo" : "ledger";
    }

    private static int status(Throwable e) {
        return e instanceof WebApplicationException w && w.getResponse() != null ? w.getResponse().getStatus() : -1;
    }

    private static Optional<Problem> problem(Response r) {
        try {
            return Problem.parse(r.hasEntity() ? r.readEntity(String.class) : null);
        } catch (RuntimeException e) {
            return Optional.empty(); // not a problem document: the status alone speaks
        }
    }

    private static String cut(String text) {
        return text.length() > MAX_DETAIL ? text.substring(0, MAX_DETAIL) + "…" : text;
    }
}
