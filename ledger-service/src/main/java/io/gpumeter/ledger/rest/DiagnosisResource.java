package io.gpumeter.ledger.rest;

import io.gpumeter.common.problem.Params;
import io.gpumeter.ledger.service.DiagnosisService;
import io.gpumeter.ledger.triad.domain.FleetDiagnosis;
import io.gpumeter.ledger.triad.domain.GpuDiagnosis;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/** The utilization triad's diagnosis of a card and the pods on it, and how many cards read as each signature. */
@Path("/api/v1")
@Produces(MediaType.APPLICATION_JSON)
public class DiagnosisResource {

    private final DiagnosisService diagnosis;

    public DiagnosisResource(DiagnosisService diagnosis) {
        this.diagnosis = diagnosis;
    }

    @GET
    @Path("/gpus/{uuid}/diagnosis")
    public Uni<GpuDiagnosis> gpu(@PathParam("uuid") String uuid, @QueryParam("from") String from, @QueryParam("to") String to) {
        return diagnosis.gpu(uuid, Params.instant("from", from), Params.instant("to", to));
    }

    @GET
    @Path("/diagnosis/fleet")
    public Uni<FleetDiagnosis> fleet(@QueryParam("from") String from, @QueryParam("to") String to,
                                     @QueryParam("cluster") String cluster) {
        return diagnosis.fleet(Params.instant("from", from), Params.instant("to", to), cluster);
    }
}
