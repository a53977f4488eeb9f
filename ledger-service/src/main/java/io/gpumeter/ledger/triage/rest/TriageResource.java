package io.gpumeter.ledger.triage.rest;

import io.gpumeter.common.fact.FactBatch;
import io.gpumeter.common.fact.FactBundle;
import io.gpumeter.common.fact.NamespaceFact;
import io.gpumeter.common.fact.NodeFact;
import io.gpumeter.common.fact.PodClaim;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.common.fact.RegisteredGpu;
import io.gpumeter.common.fact.UsageBatch;
import io.gpumeter.common.fact.UsagePartial;
import io.gpumeter.common.fact.VgpuGrant;
import io.gpumeter.common.triage.InputBundle;
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
        Triage.Recurrence.class, Triage.Evidence.class, Triage.Alternative.class, Triage.Named.class, Triage.Fix.class,
        InputBundle.class, FactBundle.class, FactBatch.class, NamespaceFact.class, NodeFact.class, RegisteredGpu.class,
        PodFact.class, VgpuGrant.class, PodClaim.class, UsageBatch.class, UsagePartial.class})
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
     * The facts the diagnosis of the same query reads, {@code bundle} as {@code POST /api/v1/facts/bundles} takes them
     * (metering and governance), {@code usage} as {@code POST /api/v1/usage} does, so that a regression case replays
     * them into a fresh suite; the same 400s and 404s as the diagnosis.
     */
    @GET
    @Path("/inputs")
    public Uni<InputBundle> inputs(@QueryParam("namespace") String namespace, @QueryParam("pod") String pod,
                                       @QueryParam("workload") String workload, @QueryParam("podGroup") String podGroup,
                                       @QueryParam("node") String node, @QueryParam("service") String service,
                                       @QueryParam("cluster") String cluster, @QueryParam("at") String at) {
        return inputs.of(TriageRequest.of(namespace, pod, workload, podGroup, node, service, cluster, at));
    }
}
