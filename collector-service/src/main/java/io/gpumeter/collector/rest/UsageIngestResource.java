package io.gpumeter.collector.rest;

import io.gpumeter.collector.service.UsageIngestResult;
import io.gpumeter.collector.service.UsageIngestService;
import io.smallrye.common.annotation.Blocking;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/** Usage pushed by nodes or scrapers: dcgm-exporter and HAMi monitor text, nvidia-smi CSV. */
@Path("/api/v1/ingest")
@Produces(MediaType.APPLICATION_JSON)
public class UsageIngestResource {

    private final UsageIngestService usage;

    public UsageIngestResource(UsageIngestService usage) {
        this.usage = usage;
    }

    @POST
    @Path("/dcgm")
    @Blocking
    @Consumes({MediaType.TEXT_PLAIN, "application/openmetrics-text"})
    public UsageIngestResult dcgm(String body, @QueryParam("node") String node, @QueryParam("cluster") String cluster) {
        return usage.dcgm(body, node, cluster);
    }

    @POST
    @Path("/hami-monitor")
    @Blocking
    @Consumes(MediaType.TEXT_PLAIN)
    public UsageIngestResult hamiMonitor(String body, @QueryParam("node") String node, @QueryParam("cluster") String cluster) {
        return usage.hamiMonitor(body, node, cluster);
    }

    @POST
    @Path("/nvidia-smi")
    @Blocking
    @Consumes("text/csv")
    public UsageIngestResult nvidiaSmi(String body, @QueryParam("node") String node, @QueryParam("tz") String tz,
                                       @QueryParam("cluster") String cluster) {
        return usage.nvidiaSmi(body, node, tz, cluster);
    }
}
