package io.gpumeter.ledger.rest;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.common.fact.BundleResult;
import io.gpumeter.common.fact.FactBatch;
import io.gpumeter.common.fact.FactBundle;
import io.gpumeter.common.fact.IngestResult;
import io.gpumeter.common.fact.LivePodSet;
import io.gpumeter.ledger.repository.Chunks;
import io.gpumeter.ledger.repository.ReceivedPayloads;
import io.gpumeter.ledger.service.BundleIngestService;
import io.gpumeter.ledger.service.IngestService;
import io.gpumeter.ledger.service.LivePodSetService;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;

import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * Where collectors deliver batches of facts; answers once the batch is committed. Batches and bundles are read from
 * their bytes, so that the pod versions among them are stored as they came ({@link ReceivedPayloads}).
 */
@Path("/api/v1/facts")
public class FactResource {

    private final IngestService ingest;
    private final LivePodSetService livePods;
    private final BundleIngestService bundles;
    private final ObjectMapper json;

    public FactResource(IngestService ingest, LivePodSetService livePods, BundleIngestService bundles, ObjectMapper json) {
        this.ingest = ingest;
        this.json = json;
        this.bundles = bundles;
        this.livePods = livePods;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<IngestResult> deliver(
            @RequestBody(content = @Content(schema = @Schema(implementation = FactBatch.class))) InputStream body) {
        return read(body, FactBatch.class).chain(batch -> ingest.ingest(batch.value(), batch.payloads()));
    }

    /** A request's metering and governance facts, stored together or not at all. */
    @POST
    @Path("/bundles")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<BundleResult> bundle(
            @RequestBody(content = @Content(schema = @Schema(implementation = FactBundle.class))) InputStream body) {
        return read(body, FactBundle.class).chain(bundle -> bundles.ingest(bundle.value(), bundle.payloads()));
    }

    /** A body read on a worker thread, as the framework reads one, and handed back on the request's event loop. */
    private <T> Uni<ReceivedPayloads.Read<T>> read(InputStream body, Class<T> type) {
        return Chunks.offLoop(() -> ReceivedPayloads.read(json, body, type))
                .onFailure(UncheckedIOException.class).transform(Throwable::getCause);
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
