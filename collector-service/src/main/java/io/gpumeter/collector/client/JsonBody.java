package io.gpumeter.collector.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.buffer.Unpooled;
import io.smallrye.mutiny.Multi;
import io.vertx.mutiny.core.buffer.Buffer;

import java.io.UncheckedIOException;

/**
 * A request body written as JSON once, sent as it is on every attempt, in pieces: a socket write of one heap buffer
 * goes through a direct buffer as large as the write, so two replay bundles of tens of megabytes sent at once needed
 * more direct memory than a service is given, and one of them stalled until the client gave up on it.
 */
public record JsonBody(byte[] bytes) {

    /** The largest piece written to the socket at once. */
    static final int PIECE = 1 << 20;

    public static JsonBody of(ObjectMapper json, Object value) {
        try {
            return new JsonBody(json.writeValueAsBytes(value));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The body's bytes in pieces of at most {@link #PIECE}, shared rather than copied; a new stream on every call. */
    public Multi<Buffer> pieces() {
        int count = Math.max(1, (bytes.length + PIECE - 1) / PIECE);
        return Multi.createFrom().range(0, count).map(i -> {
            int from = i * PIECE;
            return Buffer.newInstance(io.vertx.core.buffer.Buffer.buffer(
                    Unpooled.wrappedBuffer(bytes, from, Math.min(PIECE, bytes.length - from))));
        });
    }
}
