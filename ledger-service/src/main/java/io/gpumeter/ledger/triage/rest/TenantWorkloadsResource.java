package io.gpumeter.ledger.triage.rest;

import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.common.problem.Params;
import io.gpumeter.ledger.triage.service.TenantWorkloads.Workload;
import io.gpumeter.ledger.triage.service.TenantWorkloads;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.time.Clock;
import java.util.List;

/**
 * A tenant's workloads now (or at {@code at}): what each holds or why it waits, each a link to its triage. A tenant's
 * token reads its own tenant's only (the access table's row scopes it by the path's tenant).
 */
@Path("/api/v1/tenants/{tenant}/workloads")
@Produces(MediaType.APPLICATION_JSON)
@RegisterForReflection(targets = {Workload.class, TenantWorkloads.Unit.class})
public class TenantWorkloadsResource {

    private final TenantWorkloads workloads;
    private final Clock clock;

    public TenantWorkloadsResource(TenantWorkloads workloads, Clock clock) {
        this.workloads = workloads;
        this.clock = clock;
    }

    @GET
    public Uni<List<Workload>> list(@PathParam("tenant") String tenant, @QueryParam("cluster") String cluster,
                                    @QueryParam("at") String at) {
        if (tenant == null || tenant.isBlank()) {
            throw ApiProblem.badRequest("tenant", "tenant is required in the path");
        }
        return workloads.of(tenant, Params.optional(cluster), Params.instantOr("at", at, clock.instant()));
    }
}
