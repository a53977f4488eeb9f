package io.gpumeter.collector.client;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.buffer.Unpooled;
import io.gpumeter.common.problem.ApiProblem;
import io.smallrye.mutiny.Multi;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.mutiny.core.buffer.Buffer;
import org.jboss.logging.Logger;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Supplier;

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

    /** A piece and how much of it is written. */
    private record Piece(byte[] bytes, int length) {
    }

    private static final Logger LOG = Logger.getLogger(JsonBody.class);

    /** The pieces as they are written, kept for every attempt once written. */
    private final Multi<Piece> written;

    /** Why the body could not be written, once its writer failed. */
    private final AtomicReference<RuntimeException> unwritten;

    private JsonBody(Multi<Piece> written, AtomicReference<RuntimeException> unwritten) {
        this.written = written;
        this.unwritten = unwritten;
    }

    /**
     * A body written on {@code writer} as it is sent: each piece goes out as soon as it is full, so that the ledger
     * reads the start of a replay's bundle while its end is still being written. The value is made on the writer too.
     */
    public static JsonBody writing(ObjectMapper json, Supplier<?> value, Executor writer) {
        AtomicReference<RuntimeException> unwritten = new AtomicReference<>();
        Multi<Piece> once = Multi.createFrom().emitter(emitter -> writer.execute(() -> {
            try {
                write(json, value, emitter::emit);
                emitter.complete();
            } catch (RuntimeException e) {
                LOG.error("a request body could not be written", e);
                unwritten.set(e);
                emitter.fail(e);
            }
        }));
        return new JsonBody(Multi.createBy().replaying().ofMulti(once), unwritten);
    }

    /**
     * Fails, naming the cause, when the body's writer failed. The HTTP client ends a request normally when its body
     * fails (the body's end is written as for any other), so the other side reads the pieces written before the
     * failure as the whole body, often none: its refusal of that body says nothing of the cause, which this does.
     */
    public void requireWritten() {
        RuntimeException e = unwritten.get();
        if (e != null) {
            throw new ApiProblem(500, "Internal Server Error", null,
                    "the collector could not write this request's facts for the ledger (" + e.getClass().getSimpleName()
                            + "); nothing of it is stored, and sending it again fails the same way");
        }
    }

    /** A body of these bytes, copied. */
    static JsonBody of(byte[] bytes) {
        List<Piece> pieces = new ArrayList<>();
        try (Pieces out = new Pieces(pieces::add)) {
            out.write(bytes, 0, bytes.length);
        }
        return new JsonBody(Multi.createFrom().iterable(pieces), new AtomicReference<>());
    }

    private static void write(ObjectMapper json, Supplier<?> value, Consumer<Piece> filled) {
        try (Pieces out = new Pieces(filled)) {
            json.writeValue(out, value.get());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The body's bytes in pieces of {@link #PIECE} (the last one shorter), shared rather than copied; a new stream from
     * the body's start on every call, each piece in a buffer of its own, which the socket may consume.
     * <p>
     * Subscribed on a Vert.x context (as the REST client subscribes a body, on its request's context), the pieces and
     * the end are handed on that context, never on the thread that writes them. The stream the REST client reads a
     * body through hands an item to the request outside its lock: a piece handed on the writer's thread while the
     * event loop, resuming the stream after a full buffer, still hands on the piece before could overtake it, and the
     * end could overtake both, so that the ledger read a broken or cut bundle (about once in a few dozen replays).
     */
    public Multi<Buffer> pieces() {
        return Multi.createFrom().deferred(() -> {
            Context context = Vertx.currentContext();
            Multi<Piece> handed = context == null ? written
                    : written.emitOn(command -> context.runOnContext(ignored -> command.run()));
            return handed.map(piece -> Buffer.newInstance(io.vertx.core.buffer.Buffer.buffer(
                    Unpooled.wrappedBuffer(piece.bytes(), 0, piece.length()))));
        });
    }

    /** Fills pieces one after the other, handing each on once the next byte needs another, the last one at close. */
    private static final class Pieces extends OutputStream {
        private final Consumer<Piece> filled;
        private byte[] current = new byte[PIECE];
        private int used;

        Pieces(Consumer<Piece> filled) {
            this.filled = filled;
        }

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
            filled.accept(new Piece(current, PIECE));
            current = new byte[PIECE];
            used = 0;
        }

        @Override
        public void close() {
            if (current != null) {
                filled.accept(new Piece(current, used));
                current = null;
            }
        }
    }
}
