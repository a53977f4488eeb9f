package io.gpumeter.collector.rest;

import io.gpumeter.collector.service.UsageIngestResult;
import io.gpumeter.collector.service.UsageIngestService;
import io.gpumeter.collector.usage.GpuIndexes;
import io.gpumeter.collector.usage.ProcessOwners;
import io.smallrye.common.annotation.Blocking;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/** Usage pushed by nodes or scrapers: dcgm-exporter and HAMi monitor text, nvidia-smi CSV and pmon text. */
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

    /** {@code --query-gpu} or {@code --query-compute-apps} CSV; the header tells which. */
    @POST
    @Path("/nvidia-smi")
    @Blocking
    @Consumes("text/csv")
    public UsageIngestResult nvidiaSmi(String body, @QueryParam("node") String node, @QueryParam("tz") String tz,
                                       @QueryParam("cluster") String cluster,
                                       @HeaderParam(ProcessOwners.HEADER) String pids) {
        return usage.nvidiaSmi(body, node, tz, cluster, pids);
    }

    /** The text of {@code nvidia-smi pmon -c 1}. */
    @POST
    @Path("/nvidia-smi")
    @Blocking
    @Consumes(MediaType.TEXT_PLAIN)
    public UsageIngestResult nvidiaSmiPmon(String body, @QueryParam("node") String node, @QueryParam("tz") String tz,
                                           @QueryParam("cluster") String cluster,
                                           @HeaderParam(ProcessOwners.HEADER) String pids,
                                           @HeaderParam(GpuIndexes.HEADER) String gpus) {
        return usage.nvidiaSmiPmon(body, node, tz, cluster, pids, gpus);
    }
}
