package io.gpumeter.ledger.repository;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.buffer.Unpooled;
import io.vertx.core.buffer.Buffer;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The bytes a request's facts arrived as, kept where they are the payload the ledger would store for a fact (see
 * {@code io.gpumeter.ledger.json}), so that a bulk load stores them as they came instead of writing every pod version
 * again: writing 40,000 pod versions took 125 ms of the services' C1-compiled code, about what reading them takes. A
 * fact is found by identity, the very object read from the body, never one equal to it, so a fact the ledger made or
 * changed itself is always written anew. One instance per request body: filled by the thread that reads it, then
 * only read, by the threads that prepare the inserts, until it is let go.
 *
 * <p>The body is parsed as it streams in and recorded meanwhile in pieces of 256 KB, let go once the pod versions are
 * stored ({@link #release}). Read whole first instead, a bundle of tens of megabytes went through many small buffers
 * into one array held to the end of the request, and the collections that copied and then marked it cost the ledger
 * as much as writing the pod versions again; pieces of a G1 region each did no better, as every such humongous
 * allocation may start a concurrent cycle.
 */
public final class ReceivedPayloads {

    /** Below half a G1 region of the services' heaps, so that a piece is an ordinary object, not a humongous one. */
    static final int PIECE = 1 << 18;

    /** The first size of a piece. */
    private static final int FIRST = 1 << 13;

    private static final ReceivedPayloads NONE = new ReceivedPayloads(null);

    private final ObjectMapper json;
    private List<byte[]> pieces = new ArrayList<>();
    private long recorded;
    private final Map<Object, Buffer> kept = new IdentityHashMap<>();

    private ReceivedPayloads(ObjectMapper json) {
        this.json = json;
    }

    /** Nothing kept: facts that did not come in a body (or a body read otherwise) are all written anew. */
    public static ReceivedPayloads none() {
        return NONE;
    }

    /**
     * Reads a body into {@code type}, keeping the bytes of the facts read in the written form; a body without any
     * JSON reads as null. A body that does not read fails with the parser's or the mapper's own exception, as an
     * {@link UncheckedIOException}'s cause.
     */
    public static <T> Read<T> read(ObjectMapper json, InputStream body, Class<T> type) {
        ReceivedPayloads received = new ReceivedPayloads(json);
        try (JsonParser parser = json.getFactory().createParser(received.recording(body))) {
            if (parser.nextToken() == null) {
                return new Read<>(null, received);
            }
            T value = json.readerFor(type).withAttribute(ReceivedPayloads.class, received).readValue(parser);
            return new Read<>(value, received);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A body's value and the payloads kept while reading it. */
    public record Read<T>(T value, ReceivedPayloads payloads) {
    }

    /** The bytes {@code fact} arrived as, or null when it did not arrive in the written form. */
    public Buffer of(Object fact) {
        return kept.get(fact);
    }

    /**
     * Lets the body go once the facts it carried are stored: tens of megabytes in a bulk load, which the heap would
     * otherwise hold for the rest of the request's transaction. Facts are written anew from then on.
     */
    public void release() {
        if (this != NONE) {
            pieces = List.of();
            kept.clear();
        }
    }

    /** Keeps the body's bytes {@code [from, to)} as the payload of {@code fact}, when they are one whole object. */
    public void keep(Object fact, long from, long to) {
        if (from >= 0 && to <= recorded && to - from >= 2 && at(from) == '{' && at(to - 1) == '}') {
            int piece = (int) (from / PIECE);
            int offset = (int) (from % PIECE);
            kept.put(fact, piece == (to - 1) / PIECE
                    ? Buffer.buffer(Unpooled.wrappedBuffer(pieces.get(piece), offset, (int) (to - from)))
                    : Buffer.buffer(copy(from, to)));
        }
    }

    /** A parser of the body's bytes {@code [from, to)}, read already, positioned on its first token. */
    public JsonParser parser(long from, long to) throws IOException {
        JsonParser parser = json.getFactory().createParser(copy(from, to));
        parser.nextToken();
        return parser;
    }

    private byte at(long position) {
        return pieces.get((int) (position / PIECE))[(int) (position % PIECE)];
    }

    private byte[] copy(long from, long to) {
        byte[] out = new byte[(int) (to - from)];
        for (long at = from; at < to; ) {
            int offset = (int) (at % PIECE);
            int n = (int) Math.min(PIECE - offset, to - at);
            System.arraycopy(pieces.get((int) (at / PIECE)), offset, out, (int) (at - from), n);
            at += n;
        }
        return out;
    }

    /** The body as the parser reads it, each byte also recorded into the pieces. */
    private InputStream recording(InputStream body) {
        return new FilterInputStream(body) {
            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                int n = in.read(b, off, len);
                if (n > 0) {
                    record(b, off, n);
                }
                return n;
            }

            @Override
            public long skip(long n) throws IOException {
                throw new IOException("a recorded body is read, not skipped");
            }
        };
    }

    /**
     * Appends to the last piece. The first piece grows to {@link #PIECE} by doubling, so that a small body takes
     * little; the pieces after it are whole from the start, as a body that fills one goes on: grown by doubling too,
     * each piece of a 60 MB bundle was copied five times over, more bytes than the bundle.
     */
    private void record(byte[] bytes, int offset, int length) {
        while (length > 0) {
            int used = (int) (recorded % PIECE);
            if (used == 0) {
                pieces.add(new byte[pieces.isEmpty() ? Math.min(PIECE, Math.max(FIRST, length)) : PIECE]);
            }
            int n = Math.min(length, PIECE - used);
            byte[] last = pieces.get(pieces.size() - 1);
            if (used + n > last.length) {
                last = Arrays.copyOf(last, Math.min(PIECE, Math.max(2 * last.length, used + n)));
                pieces.set(pieces.size() - 1, last);
            }
            System.arraycopy(bytes, offset, last, used, n);
            recorded += n;
            offset += n;
            length -= n;
        }
    }
}
