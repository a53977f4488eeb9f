package io.gpumeter.collector.rest;

import io.gpumeter.collector.service.HostIngestResult;
import io.gpumeter.collector.service.HostIngestService;
import io.smallrye.common.annotation.Blocking;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;

/** Host series pushed by nodes or scrapers: kubelet's cAdvisor page and node-exporter's, as Prometheus text. */
@Path("/api/v1/ingest")
@Produces(MediaType.APPLICATION_JSON)
public class HostIngestResource {

    private final HostIngestService host;

    public HostIngestResource(HostIngestService host) {
        this.host = host;
    }

    @POST
    @Path("/cadvisor")
    @Blocking
    @Consumes({MediaType.TEXT_PLAIN, "application/openmetrics-text"})
    @Operation(summary = "A kubelet's /metrics/cadvisor page of the node named: the CPU, CFS throttling, CPU limit, disk and "
            + "network of GPU pods' containers, per minute")
    public HostIngestResult cadvisor(String body, @QueryParam("node") String node, @QueryParam("cluster") String cluster) {
        return host.cadvisor(body, node, cluster);
    }

    @POST
    @Path("/node-exporter")
    @Blocking
    @Consumes({MediaType.TEXT_PLAIN, "application/openmetrics-text"})
    @Operation(summary = "A node-exporter's /metrics page of the node named: CPU by mode, pressure stalls, network bytes "
            + "and drops of a GPU node, per minute")
    public HostIngestResult nodeExporter(String body, @QueryParam("node") String node,
                                         @QueryParam("cluster") String cluster) {
        return host.nodeExporter(body, node, cluster);
    }
}
