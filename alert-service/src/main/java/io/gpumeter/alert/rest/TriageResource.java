package io.gpumeter.alert.rest;

import io.gpumeter.alert.service.TriageService;
import io.gpumeter.common.problem.Params;
import io.gpumeter.common.triage.Triage;
import io.gpumeter.common.triage.TriageRequest;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/**
 * Triage: from a symptom of a pod, Kueue Workload, PodGroup, node or inference service to its classified cause, with
 * the evidence, what ruled the other causes out, the changes before it and the runbook's fix. A tenant token reads
 * only its own subjects (another tenant's is a 404, as an unknown one is) and no other tenant's names.
 */
@Path("/api/v1/triage")
@Produces(MediaType.APPLICATION_JSON)
// read from the diagnosing services and written back: every part of the answer is bound by Jackson, native too
@RegisterForReflection(targets = {Triage.class, Triage.Subject.class, Triage.Scope.class, Triage.ChangeRef.class,
        Triage.Recurrence.class, Triage.Evidence.class, Triage.Alternative.class, Triage.Named.class, Triage.Fix.class})
public class TriageResource {

    private final TriageService triage;

    public TriageResource(TriageService triage) {
        this.triage = triage;
    }

    /**
     * Exactly one of pod, workload, podGroup (each with namespace, or written namespace/name), node or service, in
     * cluster, at {@code at} (now when absent). {@code tenant} cuts the answer for that tenant; a tenant token's own
     * is put there by the access filter whatever the request said.
     */
    @GET
    public Uni<Triage> triage(@QueryParam("namespace") String namespace, @QueryParam("pod") String pod,
                              @QueryParam("workload") String workload, @QueryParam("podGroup") String podGroup,
                              @QueryParam("node") String node, @QueryParam("service") String service,
                              @QueryParam("cluster") String cluster, @QueryParam("at") String at,
                              @QueryParam("tenant") String tenant) {
        TriageRequest request = TriageRequest.of(namespace, pod, workload, podGroup, node, service, cluster, at);
        return triage.triage(request, Params.optional(tenant));
    }
}
