package io.gpumeter.ledger.repository;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SequenceWriter;
import io.netty.buffer.Unpooled;
import io.vertx.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Row;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * The JSON payloads of stored facts, in and out of the database as UTF-8 bytes. A payload is written as
 * {@code convert_from($n, 'UTF8')::jsonb} ({@code ::json} for the pod versions, see V28) from a {@code bytea[]}
 * parameter, and read as a column {@code p} of
 * {@code convert_to(payload::text, 'UTF8')}: the service never turns a payload into a Java string, which under a
 * bulk replay cost as much as the JSON itself (building, compacting and re-encoding the characters of every
 * payload, both ways).
 */
public final class StoredPayloads {

    /** The column every payload read names. */
    public static final String COLUMN = "p";

    private StoredPayloads() {
    }

    /**
     * Each fact as the UTF-8 bytes of its JSON, for a {@code bytea[]} parameter: the bytes
     * {@code json.writeValueAsBytes(fact)} gives, written one after another by one generator into arrays of 128 KB
     * that each buffer is a slice of. A generator, a serializer provider and a copied array per fact were a third of
     * the cost; one array for a whole slice of a replay grew to megabytes, copied at each doubling and allocated by
     * G1 straight into the old generation (an object of half a region or more is humongous).
     */
    public static Buffer[] encode(ObjectMapper json, List<?> facts) {
        return encode(json, facts, ReceivedPayloads.none());
    }

    /** As {@link #encode(ObjectMapper, List)}, a fact that arrived in the written form stored as it came. */
    public static Buffer[] encode(ObjectMapper json, List<?> facts, ReceivedPayloads received) {
        Buffer[] out = new Buffer[facts.size()];
        Chunks bytes = new Chunks();
        try (JsonGenerator generator = json.createGenerator(bytes).setRootValueSeparator(null); // no space between facts
             SequenceWriter writer = json.writer().writeValues(generator)) {
            for (int i = 0; i < out.length; i++) {
                out[i] = received.of(facts.get(i));
                if (out[i] != null) {
                    continue;
                }
                writer.write(facts.get(i));
                generator.flush();
                out[i] = bytes.take();
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("fact cannot be serialised", e);
        }
        return out;
    }

    /**
     * As {@link #encode(ObjectMapper, List, ReceivedPayloads)}, where a null value stays SQL NULL instead of becoming
     * the JSON {@code null}.
     */
    public static Buffer[] encodeOrNull(ObjectMapper json, List<?> values, ReceivedPayloads received) {
        List<Object> present = new ArrayList<>(values.size());
        for (Object value : values) {
            if (value != null) {
                present.add(value);
            }
        }
        Buffer[] encoded = encode(json, present, received);
        Buffer[] out = new Buffer[values.size()];
        for (int i = 0, j = 0; i < out.length; i++) {
            if (values.get(i) != null) {
                out[i] = encoded[j++];
            }
        }
        return out;
    }

    /**
     * Bytes written into arrays of {@link #CHUNK}, handed out as slices: a write that does not fit starts the next
     * array with the bytes not yet taken, so every slice lies in one array.
     */
    static final class Chunks extends OutputStream {
        static final int CHUNK = 1 << 17;
        private byte[] chunk = new byte[CHUNK];
        private int taken;
        private int written;

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            if (written + len > chunk.length) {
                int pending = written - taken;
                byte[] next = new byte[Math.max(CHUNK, pending + len)];
                System.arraycopy(chunk, taken, next, 0, pending);
                chunk = next;
                taken = 0;
                written = pending;
            }
            System.arraycopy(b, off, chunk, written, len);
            written += len;
        }

        /** The bytes written since the last take. */
        Buffer take() {
            Buffer slice = Buffer.buffer(Unpooled.wrappedBuffer(chunk, taken, written - taken));
            taken = written;
            return slice;
        }
    }

    /** The payload of one row. */
    public static <T> T decode(ObjectMapper json, Row row, Class<T> type) {
        try {
            return json.readValue(row.getBuffer(COLUMN).getBytes(), type);
        } catch (IOException e) {
            throw new IllegalStateException("stored " + type.getSimpleName() + " is unreadable", e);
        }
    }

    /** The payloads of these rows, appended to {@code into}. */
    public static <T> List<T> decode(ObjectMapper json, Iterable<Row> rows, Class<T> type, List<T> into) {
        for (Row row : rows) {
            into.add(StoredPayloads.decode(json, row, type));
        }
        return into;
    }

    /** The payloads of these rows. */
    public static <T> List<T> decode(ObjectMapper json, Iterable<Row> rows, Class<T> type) {
        return StoredPayloads.decode(json, rows, type, new ArrayList<>());
    }
}
