package io.gpumeter.ledger.repository;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.common.fact.PodFact;
import io.vertx.core.buffer.Buffer;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The fields of pod versions that {@code ledger.pod_lifecycle} keeps (V39, V41), as array parameters of the statement that
 * stores the versions. Each is taken from the version in hand exactly as PostgreSQL reads it from the stored payload,
 * so that a row kept at intake equals one the migration derives from the same versions.
 */
final class PodLifecycleColumns {

    private PodLifecycleColumns() {
    }

    /**
     * A time field of each version as PostgreSQL parses the payload's text of it: a {@code timestamptz} keeps
     * microseconds, and its input rounds a longer fraction ({@code rint(fraction * 1e6)}) where the binary parameter
     * of an instant would truncate it.
     */
    static OffsetDateTime[] parsedTimes(List<PodFact> pods, Function<PodFact, Instant> field) {
        OffsetDateTime[] out = new OffsetDateTime[pods.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = Columns.offset(asParsed(field.apply(pods.get(i))));
        }
        return out;
    }

    static Instant asParsed(Instant at) {
        if (at == null || at.getNano() % 1_000 == 0) {
            return at;
        }
        // The payload writes the fraction's nine digits; the double nearest them is nano / 1e9 (both correctly rounded).
        long micros = (long) Math.rint(at.getNano() / 1e9 * 1_000_000);
        return Instant.ofEpochSecond(at.getEpochSecond()).plusNanos(micros * 1_000);
    }

    /** Whether each version is in a phase the pod ends in. */
    static Boolean[] finished(List<PodFact> pods) {
        Boolean[] out = new Boolean[pods.size()];
        for (int i = 0; i < out.length; i++) {
            String phase = pods.get(i).phase();
            out[i] = "Succeeded".equals(phase) || "Failed".equals(phase);
        }
        return out;
    }

    /**
     * Each version's labels as the UTF-8 bytes of a JSON object, written by one generator as the payloads are: the
     * statement turns only each pod's newest into {@code jsonb}.
     */
    static Buffer[] labels(ObjectMapper json, List<PodFact> pods) {
        List<Map<String, String>> labels = new ArrayList<>(pods.size());
        for (PodFact pod : pods) {
            labels.add(pod.labels());
        }
        return StoredPayloads.encode(json, labels);
    }

    /**
     * Each version's GPU resources as PostgreSQL prints them as {@code jsonb} (see {@link #jsonbText}); the few
     * distinct maps of a slice are written once. The statement picks a pod's newest version by these texts on a tie
     * of observation times, as the upsert and the migration compare the stored {@code jsonb}'s text: sorting the
     * texts as they come, instead of parsing and printing each version's, took a third off the statement.
     */
    static String[] resources(List<PodFact> pods) {
        String[] out = new String[pods.size()];
        Map<Map<String, Long>, String> written = new HashMap<>();
        for (int i = 0; i < out.length; i++) {
            out[i] = written.computeIfAbsent(pods.get(i).gpuResources(), PodLifecycleColumns::jsonbText);
        }
        return out;
    }

    /**
     * A map of names to whole amounts as {@code jsonb} prints it: keys shorter first, then by their UTF-8 bytes;
     * {@code ": "} and {@code ", "} between; in a key only {@code "}, {@code \} and control characters escaped.
     */
    static String jsonbText(Map<String, Long> amounts) {
        List<Map.Entry<byte[], Long>> keys = new ArrayList<>();
        amounts.forEach((k, v) -> keys.add(Map.entry(k.getBytes(StandardCharsets.UTF_8), v)));
        keys.sort((x, y) -> x.getKey().length != y.getKey().length ? Integer.compare(x.getKey().length, y.getKey().length)
                : Arrays.compareUnsigned(x.getKey(), y.getKey()));
        StringBuilder out = new StringBuilder("{");
        for (Map.Entry<byte[], Long> key : keys) {
            if (out.length() > 1) {
                out.append(", ");
            }
            escaped(out, new String(key.getKey(), StandardCharsets.UTF_8)).append(": ").append(key.getValue().longValue());
        }
        return out.append('}').toString();
    }

    /** A string as PostgreSQL's escape_json writes it. */
    private static StringBuilder escaped(StringBuilder out, String text) {
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < ' ') {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"');
    }
}
