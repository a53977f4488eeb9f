package io.gpumeter.ledger.rest;

import io.gpumeter.common.fact.BundleResult;
import io.gpumeter.common.fact.FactBatch;
import io.gpumeter.common.fact.FactBundle;
import io.gpumeter.common.fact.IngestResult;
import io.gpumeter.common.fact.LivePodSet;
import io.gpumeter.ledger.service.BundleIngestService;
import io.gpumeter.ledger.service.IngestService;
import io.gpumeter.ledger.service.LivePodSetService;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** Where collectors deliver batches of facts; answers once the batch is committed. */
@Path("/api/v1/facts")
public class FactResource {

    private final IngestService ingest;
    private final LivePodSetService livePods;
    private final BundleIngestService bundles;

    public FactResource(IngestService ingest, LivePodSetService livePods, BundleIngestService bundles) {
        this.ingest = ingest;
        this.bundles = bundles;
        this.livePods = livePods;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<IngestResult> deliver(FactBatch batch) {
        return ingest.ingest(batch);
    }

    /** A request's metering and governance facts, stored together or not at all. */
    @POST
    @Path("/bundles")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<BundleResult> bundle(FactBundle bundle) {
        return bundles.ingest(bundle);
    }

    /** A collector's relist of pods: closes what was deleted while nobody watched. */
    @POST
    @Path("/live-pods")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<IngestResult> livePods(LivePodSet set) {
        return livePods.reconcile(set);
    }
}
