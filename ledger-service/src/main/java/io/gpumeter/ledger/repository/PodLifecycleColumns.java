package io.gpumeter.ledger.repository;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.common.fact.PodFact;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The fields of pod versions that {@code ledger.pod_lifecycle} keeps (V39), as array parameters of the statement that
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
     * The JSON of each version's GPU resources, as its payload writes them (a map of names to whole amounts); the few
     * distinct maps of a slice are written once.
     */
    static String[] resources(ObjectMapper json, List<PodFact> pods) {
        String[] out = new String[pods.size()];
        Map<Map<String, Long>, String> written = new HashMap<>();
        for (int i = 0; i < out.length; i++) {
            out[i] = written.computeIfAbsent(pods.get(i).gpuResources(), amounts -> write(json, amounts));
        }
        return out;
    }

    private static String write(ObjectMapper json, Map<String, Long> amounts) {
        try {
            return json.writeValueAsString(amounts);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("GPU resources cannot be written", e);
        }
    }
}
