package io.gpumeter.slo.triage;

import io.gpumeter.common.triage.Triage;
import io.gpumeter.common.triage.TriageRequest;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;

/**
 * The diagnosis of an inference service that alert-service's triage asks for (ADR 19): a {@link Triage} without its
 * fix. A fleet read: alert-service reads it with its own token and cuts a tenant's answer from it.
 */
@Path("/api/v1/triage/diagnosis")
@Produces(MediaType.APPLICATION_JSON)
@RegisterForReflection(targets = {Triage.class, Triage.Subject.class, Triage.Scope.class, Triage.ChangeRef.class,
        Triage.Recurrence.class, Triage.Evidence.class, Triage.Alternative.class, Triage.Named.class, Triage.Fix.class})
public class TriageResource {

    private final ServiceTriage triage;

    public TriageResource(ServiceTriage triage) {
        this.triage = triage;
    }

    @GET
    @Operation(summary = "Why an inference service (namespace=, service=) was slow at at (default now): PERFORMANCE when"
            + " a jitter event or a burning SLO fell in the look-back before it, with the cause (neighbour-interference,"
            + " own-load or unexplained), the evidence and the command showing each fact, what ruled the other causes"
            + " out, the changes before, the recurrence over 7 days and the other services on its cards alike; NONE"
            + " with what was checked otherwise. Writes nothing")
    public Uni<Triage> diagnose(@QueryParam("namespace") String namespace, @QueryParam("pod") String pod,
                                @QueryParam("workload") String workload, @QueryParam("podGroup") String podGroup,
                                @QueryParam("node") String node, @QueryParam("service") String service,
                                @QueryParam("cluster") String cluster, @QueryParam("at") String at) {
        return triage.diagnose(TriageRequest.of(namespace, pod, workload, podGroup, node, service, cluster, at));
    }
}
