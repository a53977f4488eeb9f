package io.gpumeter.ledger.triage.rest;

import io.gpumeter.common.fact.GovernanceBatch;
import io.gpumeter.common.triage.Triage;
import io.gpumeter.common.triage.TriageRequest;
import io.gpumeter.ledger.triage.service.TriageInputs;
import io.gpumeter.ledger.triage.service.TriageService;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/**
 * The ledger's diagnosis of a pod, Kueue Workload, PodGroup or node (ADR 19): the symptom, its cause with the layer,
 * the evidence and what a person runs to see it, what was ruled out, the changes before it, how often it recurred and
 * how far it reached; the fix is alert-service's to add. A fleet read; a triage writes nothing.
 */
@Path("/api/v1/triage")
@Produces(MediaType.APPLICATION_JSON)
// every part of the answer is written by Jackson, native too
@RegisterForReflection(targets = {Triage.class, Triage.Subject.class, Triage.Scope.class, Triage.ChangeRef.class,
        Triage.Recurrence.class, Triage.Evidence.class, Triage.Alternative.class, Triage.Named.class, Triage.Fix.class})
public class TriageResource {

    private final TriageService triage;
    private final TriageInputs inputs;

    public TriageResource(TriageService triage, TriageInputs inputs) {
        this.triage = triage;
        this.inputs = inputs;
    }

    /** Exactly one of pod, workload, podGroup (each with namespace, or written namespace/name) or node; service is 400. */
    @GET
    @Path("/diagnosis")
    public Uni<Triage> diagnosis(@QueryParam("namespace") String namespace, @QueryParam("pod") String pod,
                                 @QueryParam("workload") String workload, @QueryParam("podGroup") String podGroup,
                                 @QueryParam("node") String node, @QueryParam("service") String service,
                                 @QueryParam("cluster") String cluster, @QueryParam("at") String at) {
        return triage.diagnose(TriageRequest.of(namespace, pod, workload, podGroup, node, service, cluster, at));
    }

    /**
     * The governance facts the diagnosis of the same query reads, as {@code POST /api/v1/facts/governance} takes them,
     * so that a regression case replays them into a fresh suite; the same 400s and 404s as the diagnosis.
     */
    @GET
    @Path("/inputs")
    public Uni<GovernanceBatch> inputs(@QueryParam("namespace") String namespace, @QueryParam("pod") String pod,
                                       @QueryParam("workload") String workload, @QueryParam("podGroup") String podGroup,
                                       @QueryParam("node") String node, @QueryParam("service") String service,
                                       @QueryParam("cluster") String cluster, @QueryParam("at") String at) {
        return inputs.of(TriageRequest.of(namespace, pod, workload, podGroup, node, service, cluster, at));
    }
}
