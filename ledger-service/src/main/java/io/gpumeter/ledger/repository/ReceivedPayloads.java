package io.gpumeter.ledger.repository;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.buffer.Unpooled;
import io.vertx.core.buffer.Buffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * The bytes a request's facts arrived as, kept where they are the payload the ledger would store for a fact (see
 * {@code io.gpumeter.ledger.json}), so that a bulk load stores them as they came instead of writing every pod version
 * again: writing 40,000 pod versions took 125 ms of the services' C1-compiled code, about what reading them takes. A
 * fact is found by identity, the very object read from the body, never one equal to it, so a fact the ledger made or
 * changed itself is always written anew. One instance per request body.
 */
public final class ReceivedPayloads {

    private static final ReceivedPayloads NONE = new ReceivedPayloads(null, new byte[0]);

    private final JsonFactory parsers;
    private final byte[] body;
    private final Map<Object, Buffer> kept = new IdentityHashMap<>();

    private ReceivedPayloads(JsonFactory parsers, byte[] body) {
        this.parsers = parsers;
        this.body = body;
    }

    /** Nothing kept: facts that did not come in a body (or a body read otherwise) are all written anew. */
    public static ReceivedPayloads none() {
        return NONE;
    }

    /**
     * Reads a body into {@code type}, keeping the bytes of the facts read in the written form; an empty body reads
     * as null. A body that does not read fails with the parser's or the mapper's own exception, as an
     * {@link UncheckedIOException}'s cause.
     */
    public static <T> Read<T> read(ObjectMapper json, byte[] body, Class<T> type) {
        ReceivedPayloads received = new ReceivedPayloads(json.getFactory(), body);
        if (isBlank(body)) {
            return new Read<>(null, received);
        }
        try {
            T value = json.readerFor(type).withAttribute(ReceivedPayloads.class, received).readValue(body);
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

    /** Keeps {@code body[from, to)} as the payload of {@code fact}, when it is one whole object of the body. */
    public void keep(Object fact, long from, long to) {
        if (from >= 0 && to <= body.length && to - from >= 2 && body[(int) from] == '{' && body[(int) to - 1] == '}') {
            kept.put(fact, Buffer.buffer(Unpooled.wrappedBuffer(body, (int) from, (int) (to - from))));
        }
    }

    /** A parser of the body from {@code from} on, positioned on its first token there. */
    public JsonParser parserFrom(long from) throws IOException {
        JsonParser parser = parsers.createParser(body, (int) from, body.length - (int) from);
        parser.nextToken();
        return parser;
    }

    private static boolean isBlank(byte[] body) {
        for (byte b : body) {
            if (b != ' ' && b != '\t' && b != '\n' && b != '\r') {
                return false;
            }
        }
        return true;
    }
}
