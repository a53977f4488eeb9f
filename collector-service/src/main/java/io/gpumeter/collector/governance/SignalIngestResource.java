package io.gpumeter.collector.governance;

import io.smallrye.common.annotation.Blocking;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.io.InputStream;

/** Pushed logs: a node's kernel log (Xids) and a container's output (CUDA and NCCL failures). */
@Path("/api/v1/ingest")
public class SignalIngestResource {

    private final SignalIngestService signals;

    public SignalIngestResource(SignalIngestService signals) {
        this.signals = signals;
    }

    @POST
    @Path("/kmsg")
    @Blocking
    @Consumes(MediaType.TEXT_PLAIN)
    @Produces(MediaType.APPLICATION_JSON)
    public SignalResult kernelLog(InputStream body, @QueryParam("node") String node, @QueryParam("cluster") String cluster,
                                  @QueryParam("zone") String zone, @QueryParam("bootTime") String bootTime) {
        return signals.kernelLog(body, cluster, node, zone, bootTime);
    }

    @POST
    @Path("/container-log")
    @Blocking
    @Consumes(MediaType.TEXT_PLAIN)
    @Produces(MediaType.APPLICATION_JSON)
    public SignalResult containerLog(InputStream body, @QueryParam("namespace") String namespace,
                                     @QueryParam("pod") String pod, @QueryParam("container") String container,
                                     @QueryParam("cluster") String cluster) {
        return signals.containerLog(body, cluster, namespace, pod, container);
    }
}
