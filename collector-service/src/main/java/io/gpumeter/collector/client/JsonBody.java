package io.gpumeter.collector.client;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.buffer.Unpooled;
import io.smallrye.mutiny.Multi;
import io.vertx.mutiny.core.buffer.Buffer;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A request body written as JSON once, sent as it is on every attempt, in pieces. A socket write of one heap buffer
 * goes through a direct buffer as large as the write, so two replay bundles of tens of megabytes sent at once needed
 * more direct memory than a service is given, and one of them stalled until the client gave up on it. The body is
 * also written in pieces, never as one array: copying a bundle of 60 MB out of the serializer's buffers into one
 * array was a second pass over every byte.
 */
public final class JsonBody {

    /**
     * The size of a piece: just under the 1 MiB G1 region of the collector's heap, so that each piece is a humongous
     * object of one region. G1 frees those as soon as they are unreferenced; pieces small enough to be ordinary
     * objects outlived a few young collections while the ledger stored the bundle, were promoted, and kept the heap
     * at its peak after the load (a collector settled at 369 MB instead of 171 MB after a month's replay).
     */
    static final int PIECE = (1 << 20) - (1 << 16);

    private final List<byte[]> pieces;
    private final int lastLength;

    private JsonBody(List<byte[]> pieces, int lastLength) {
        this.pieces = pieces;
        this.lastLength = lastLength;
    }

    public static JsonBody of(ObjectMapper json, Object value) {
        Pieces out = new Pieces();
        try {
            json.writeValue(out, value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.body();
    }

    /** A body of these bytes, copied. */
    static JsonBody of(byte[] bytes) {
        Pieces out = new Pieces();
        out.write(bytes, 0, bytes.length);
        return out.body();
    }

    /** The body's length in bytes, for its Content-Length. */
    public long length() {
        return (long) (pieces.size() - 1) * PIECE + lastLength;
    }

    /** The body's bytes in pieces of {@link #PIECE} (the last one shorter), shared rather than copied; a new stream on every call. */
    public Multi<Buffer> pieces() {
        int last = pieces.size() - 1;
        return Multi.createFrom().range(0, pieces.size()).map(i -> Buffer.newInstance(io.vertx.core.buffer.Buffer.buffer(
                Unpooled.wrappedBuffer(pieces.get(i), 0, i == last ? lastLength : PIECE))));
    }

    /** Fills pieces one after the other. */
    private static final class Pieces extends OutputStream {
        private final List<byte[]> filled = new ArrayList<>();
        private byte[] current = new byte[PIECE];
        private int used;

        @Override
        public void write(int b) {
            if (used == PIECE) {
                next();
            }
            current[used++] = (byte) b;
        }

        @Override
        public void write(byte[] bytes, int offset, int length) {
            while (length > 0) {
                if (used == PIECE) {
                    next();
                }
                int n = Math.min(length, PIECE - used);
                System.arraycopy(bytes, offset, current, used, n);
                used += n;
                offset += n;
                length -= n;
            }
        }

        private void next() {
            filled.add(current);
            current = new byte[PIECE];
            used = 0;
        }

        JsonBody body() {
            filled.add(current);
            return new JsonBody(filled, used);
        }
    }
}
