package io.gpumeter.ledger.repository;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SequenceWriter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.vertx.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Row;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
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
     * {@code json.writeValueAsBytes(fact)} gives, written one after another by one generator into one array that each
     * buffer is a slice of. A generator, a serializer provider and a copied array per fact were a third of the cost.
     */
    public static Buffer[] encode(ObjectMapper json, List<?> facts) {
        Buffer[] out = new Buffer[facts.size()];
        Bytes bytes = new Bytes(Math.max(256, facts.size() * 512));
        int[] ends = new int[out.length];
        try (JsonGenerator generator = json.createGenerator(bytes).setRootValueSeparator(null); // no space between facts
             SequenceWriter writer = json.writer().writeValues(generator)) {
            for (int i = 0; i < out.length; i++) {
                writer.write(facts.get(i));
                generator.flush();
                ends[i] = bytes.size();
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("fact cannot be serialised", e);
        }
        ByteBuf all = Unpooled.wrappedBuffer(bytes.array(), 0, bytes.size());
        for (int i = 0, start = 0; i < out.length; start = ends[i++]) {
            out[i] = Buffer.buffer(all.slice(start, ends[i] - start));
        }
        return out;
    }

    /** As {@link #encode}, where a null value stays SQL NULL instead of becoming the JSON {@code null}. */
    public static Buffer[] encodeOrNull(ObjectMapper json, List<?> values) {
        List<Object> present = new ArrayList<>(values.size());
        for (Object value : values) {
            if (value != null) {
                present.add(value);
            }
        }
        Buffer[] encoded = encode(json, present);
        Buffer[] out = new Buffer[values.size()];
        for (int i = 0, j = 0; i < out.length; i++) {
            if (values.get(i) != null) {
                out[i] = encoded[j++];
            }
        }
        return out;
    }

    /** A byte array stream whose array is read in place. */
    private static final class Bytes extends ByteArrayOutputStream {
        Bytes(int size) {
            super(size);
        }

        byte[] array() {
            return buf;
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
