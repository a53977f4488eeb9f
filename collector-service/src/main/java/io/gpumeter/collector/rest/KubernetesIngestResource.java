package io.gpumeter.collector.rest;

import io.gpumeter.collector.service.ReplayResult;
import io.gpumeter.collector.service.ReplayService;
import io.smallrye.common.annotation.Blocking;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.io.InputStream;

/** Replay and backfill: Kubernetes watch events as NDJSON, one event per line. */
@Path("/api/v1/ingest/kubernetes")
public class KubernetesIngestResource {

    private final ReplayService replay;

    public KubernetesIngestResource(ReplayService replay) {
        this.replay = replay;
    }

    @POST
    @Blocking
    @Consumes({"application/x-ndjson", "application/jsonl", MediaType.TEXT_PLAIN})
    @Produces(MediaType.APPLICATION_JSON)
    public ReplayResult ingest(InputStream body, @QueryParam("cluster") String cluster) {
        return replay.replay(body, cluster);
    }
}
