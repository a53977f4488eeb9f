package io.gpumeter.ledger.governance.rest;

import io.gpumeter.common.problem.Params;
import io.gpumeter.ledger.governance.domain.VolcanoJobReport;
import io.gpumeter.ledger.governance.service.VolcanoJobService;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;

import java.util.List;

/**
 * The Volcano Jobs that finished in [from, to), per group: GPU-hours per job, success rate, retries and queueing.
 * {@code limit} and {@code offset} page the groups.
 */
@Path("/api/v1/volcano-jobs")
@Produces(MediaType.APPLICATION_JSON)
public class VolcanoJobResource {

    private final VolcanoJobService jobs;

    public VolcanoJobResource(VolcanoJobService jobs) {
        this.jobs = jobs;
    }

    @GET
    @Operation(summary = "Volcano Jobs that finished in [from, to) per queue, namespace or tenant: GPU-hours per job, "
            + "success rate, retries and queueing, with the group's jobs")
    public Uni<List<VolcanoJobReport.Group>> finished(
            @Parameter(description = "start of the window, RFC 3339") @QueryParam("from") String from,
            @Parameter(description = "end of the window (excluded), RFC 3339") @QueryParam("to") String to,
            @Parameter(description = "queue (default), namespace or tenant") @QueryParam("groupBy") String groupBy,
            @Parameter(description = "only this cluster's jobs") @QueryParam("cluster") String cluster,
            @Parameter(description = "only this tenant's jobs") @QueryParam("tenant") String tenant,
            @Parameter(description = "how many jobs each group lists, the most recently finished first: 0 to 1000, "
                    + "20 by default") @QueryParam("jobsPerGroup") String jobsPerGroup) {
        return jobs.finished(Params.instant("from", from), Params.instant("to", to), groupBy, Params.optional(cluster),
                Params.optional(tenant), jobsPerGroup);
    }
}
