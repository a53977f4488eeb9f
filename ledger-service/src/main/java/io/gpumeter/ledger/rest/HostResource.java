package io.gpumeter.ledger.rest;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.common.fact.ClusterName;
import io.gpumeter.common.fact.HostBatch;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.common.problem.Params;
import io.gpumeter.ledger.host.domain.HostSeries;
import io.gpumeter.ledger.service.HostService;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Host minutes: where collectors deliver them, and the bulk read of pods' and nodes' host series. */
@Path("/api/v1/host")
public class HostResource {

    /** The most pods, and the most nodes, one read names; a larger set is split by the caller. */
    static final int MAX_NAMES = 500;

    private final HostService host;

    public HostResource(HostService host) {
        this.host = host;
    }

    @POST
    @Path("/minutes")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Host minutes from a collector: GPU pods' cgroups and GPU nodes, stored whole or not at all")
    public Uni<HostService.HostResult> deliver(HostBatch batch) {
        return host.ingest(batch);
    }

    @POST
    @Path("/series")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Host spans (minutes, hours past the minute retention) of the pods (\"namespace/pod\") and nodes "
            + "named, of one cluster, over [from, to): at most " + MAX_NAMES + " of each and 7 days")
    public Uni<HostSeries> series(HostSeriesRequest request) {
        if (request == null) {
            throw ApiProblem.badRequest("body", "a host read is required: {\"cluster\",\"from\",\"to\",\"pods\":[\"ns/pod\"],"
                    + "\"nodes\":[\"node\"]}");
        }
        String cluster = ClusterName.require("cluster", request.cluster());
        TimeWindow window = Params.window(Params.instant("from", request.from()), Params.instant("to", request.to()),
                GpuUsageResource.MAX_WINDOW);
        List<String> pods = names("pods", request.pods(), true);
        List<String> nodes = names("nodes", request.nodes(), false);
        if (pods.isEmpty() && nodes.isEmpty()) {
            throw ApiProblem.badRequest("pods", "name at least one pod (\"namespace/pod\") or node");
        }
        return host.series(cluster, pods, nodes, window.start(), window.end());
    }

    /** The names given, each once, in order; none blank, pods as namespace/pod. */
    static List<String> names(String field, List<String> given, boolean pods) {
        if (given == null) {
            return List.of();
        }
        if (given.size() > MAX_NAMES) {
            throw ApiProblem.badRequest(field, field + " may name at most " + MAX_NAMES + ", got " + given.size()
                    + "; split the set");
        }
        Set<String> out = new LinkedHashSet<>();
        for (int i = 0; i < given.size(); i++) {
            String name = given.get(i) == null ? "" : given.get(i).strip();
            int slash = name.indexOf('/');
            if (name.isEmpty() || pods && (slash <= 0 || slash == name.length() - 1 || name.indexOf('/', slash + 1) >= 0)) {
                throw ApiProblem.badRequest(field + "[" + i + "]", field + "[" + i + "] must be "
                        + (pods ? "namespace/pod" : "a node name") + ", got '" + given.get(i) + "'");
            }
            out.add(name);
        }
        return List.copyOf(out);
    }
}
