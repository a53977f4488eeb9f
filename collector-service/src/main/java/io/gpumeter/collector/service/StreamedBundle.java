package io.gpumeter.collector.service;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.gpumeter.collector.client.JsonBody;
import io.gpumeter.collector.kubernetes.FactSink;
import io.gpumeter.collector.kubernetes.WatchStreamReader;
import io.gpumeter.common.fact.BundleResult;
import io.gpumeter.common.fact.FactBatch;
import io.gpumeter.common.fact.FactBundle;
import io.gpumeter.common.fact.PodFact;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * A replay's bundle sent to the ledger while the request is still being read: the pod versions of each block of
 * lines once the block is gathered, in line order, and the rest (namespaces, nodes, Dynamic Resource Allocation
 * objects, the pods' governance views, the other governance facts) once the last line is read. The ledger parses a
 * bundle as it arrives, so its reading overlaps the collector's, and it stores nothing before the bundle is whole: a
 * request that fails after its first pod versions went out is {@linkplain #abandon() abandoned} by ending the body
 * inside the bundle, which the ledger refuses as incomplete JSON.
 *
 * <p>The bundle is the one {@link FactBundle#carrying} makes of the request, its {@code facts.pods} first: field
 * order means nothing to the ledger's reader. Each block's pod versions are written on the parser thread that read
 * it, by the mapper's own serializer, so every version keeps the written form the ledger stores as it came.
 */
final class StreamedBundle implements WatchStreamReader.Alongside<byte[]> {

    private final ObjectWriter pods;
    private final ObjectMapper json;
    private final String cluster;
    private final Function<JsonBody, BundleResult> delivery;
    private final Executor sender;
    private JsonBody.Streaming body;
    private JsonGenerator envelope;
    private CompletableFuture<BundleResult> delivered;

    /** A bundle for {@code cluster}, handed to {@code delivery} on {@code sender} once its first pod version is read. */
    StreamedBundle(ObjectMapper json, String cluster, Function<JsonBody, BundleResult> delivery, Executor sender) {
        this.json = json;
        this.pods = json.writerFor(json.getTypeFactory().constructCollectionType(List.class, PodFact.class));
        this.cluster = cluster;
        this.delivery = delivery;
        this.sender = sender;
    }

    /** A block's pod versions as a JSON array, or null when it has none. */
    @Override
    public byte[] prepare(FactSink block) {
        if (block.pods().isEmpty()) {
            return null;
        }
        try {
            return pods.writeValueAsBytes(block.pods());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Sends a block's pod versions, the elements of its array; the first ones open the bundle and its delivery. */
    @Override
    public void take(byte[] array) {
        if (array == null) {
            return;
        }
        if (body == null) {
            open();
        } else {
            body.write(',');
        }
        body.write(array, 1, array.length - 2); // without the brackets
    }

    /** Whether the bundle is on its way: some pod version has been read. */
    boolean started() {
        return body != null;
    }

    /**
     * Writes the rest of {@code whole}, whose pod versions are those sent, and waits for the ledger's answer; failures
     * of the delivery are thrown as {@code delivery} throws them.
     */
    BundleResult finish(FactBundle whole) {
        try {
            envelope.writeEndArray();
            FactBatch facts = whole.facts();
            envelope.writeObjectField("namespaces", facts.namespaces());
            envelope.writeObjectField("nodes", facts.nodes());
            envelope.writeObjectField("resourceClaims", facts.resourceClaims());
            envelope.writeObjectField("resourceSlices", facts.resourceSlices());
            envelope.writeObjectField("deviceClasses", facts.deviceClasses());
            envelope.writeEndObject();
            if (!whole.carriedStatuses().isEmpty()) {
                envelope.writeObjectField("carriedStatuses", whole.carriedStatuses());
            }
            if (whole.governance() != null) {
                envelope.writeObjectField("governance", whole.governance());
            }
            envelope.writeEndObject();
            envelope.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        body.close();
        try {
            return delivered.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause : e;
        }
    }

    /**
     * Ends the body where it is, inside the bundle, so that the ledger refuses it and stores nothing, and waits for
     * its answer, whatever it is; nothing to do if no pod version went out.
     */
    void abandon() {
        if (body == null) {
            return;
        }
        body.close();
        delivered.exceptionally(failure -> null).join();
    }

    private void open() {
        body = JsonBody.streaming();
        try {
            envelope = json.createGenerator(body).disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            envelope.writeStartObject();
            envelope.writeFieldName("facts");
            envelope.writeStartObject();
            envelope.writeStringField("cluster", cluster);
            envelope.writeFieldName("pods");
            envelope.writeStartArray();
            envelope.flush(); // the pod versions go straight to the body after this
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        JsonBody sent = body.body();
        delivered = CompletableFuture.supplyAsync(() -> delivery.apply(sent), sender);
    }
}
