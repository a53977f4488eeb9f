package io.gpumeter.slo.service;

import io.gpumeter.common.problem.JsonFault;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.slo.domain.LatencyHistograms;
import io.gpumeter.slo.domain.LatencyRecord;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * Parses an NDJSON body of request records strictly: the first bad line fails the whole body with a 400 that
 * names the line and the field.
 */
public final class LatencyLines {

    private static final Set<String> FIELDS = Set.of("service", "namespace", "pod", "ts", "ttftMs", "itlMs",
            "e2eMs", "ok");
    private static final int MAX_NAME = 253;

    private final ObjectReader reader;
    private final int maxLines;

    public LatencyLines(ObjectMapper mapper, int maxLines) {
        this.reader = strictReader(mapper);
        this.maxLines = maxLines;
    }

    /**
     * The records of a body, one per non-blank line.
     *
     * @throws ApiProblem 400 naming the first bad line and field, 413 above the configured number of records
     */
    public List<LatencyRecord> parse(String body) {
        return eachLine(body, maxLines, "records", this::record);
    }

    /** A reader that refuses a field given twice. */
    static ObjectReader strictReader(ObjectMapper mapper) {
        return mapper.reader().with(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
    }

    /** Reads one non-blank line into a value, given its 1-based number. */
    interface LineReader<T> {
        T read(int line, String text);
    }

    /**
     * Each non-blank line of an NDJSON body read in turn; the first that fails, fails the body.
     *
     * @param what what a line carries, for the messages
     * @throws ApiProblem 400 for an empty body, 413 above {@code maxLines} lines
     */
    static <T> List<T> eachLine(String body, int maxLines, String what, LineReader<T> reader) {
        List<T> out = new ArrayList<>();
        String[] lines = body == null ? new String[0] : body.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].isBlank()) {
                continue;
            }
            if (out.size() == maxLines) {
                throw ApiProblem.tooLarge("body", "a body carries at most " + maxLines + " " + what
                        + "; split it into several requests");
            }
            out.add(reader.read(i + 1, lines[i]));
        }
        if (out.isEmpty()) {
            throw ApiProblem.badRequest("body", "the body has no " + what + ": send one JSON object per line");
        }
        return out;
    }

    private LatencyRecord record(int line, String text) {
        JsonNode node = object(reader, line, text, FIELDS);
        String service = name(line, node, "service");
        String namespace = name(line, node, "namespace");
        String pod = name(line, node, "pod");
        Instant ts = ts(line, node.get("ts"));
        JsonNode ok = node.get("ok");
        if (ok == null || !ok.isBoolean()) {
            throw bad(line, "ok", "ok must be true or false");
        }
        return new LatencyRecord(service, namespace, pod, ts, millis(line, node, "ttftMs"),
                millis(line, node, "itlMs"), millis(line, node, "e2eMs"), ok.booleanValue());
    }

    /**
     * One line as a JSON object with no field but {@code fields} and none repeated.
     *
     * @throws ApiProblem 400 naming the line, and the unknown field
     */
    static JsonNode object(ObjectReader reader, int line, String text, Set<String> fields) {
        JsonNode node;
        try {
            node = reader.readTree(text);
        } catch (JsonProcessingException e) {
            throw bad(line, null, "is not a JSON object: " + JsonFault.of(e).detail());
        }
        if (node == null || !node.isObject()) {
            throw bad(line, null, "is not a JSON object");
        }
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!fields.contains(name)) {
                throw bad(line, name, "has an unknown field '" + name + "'; the fields are " + fields);
            }
        }
        return node;
    }

    static String name(int line, JsonNode node, String field) {
        JsonNode v = node.get(field);
        if (v == null || !v.isTextual() || v.textValue().isBlank() || v.textValue().length() > MAX_NAME
                || !v.textValue().equals(v.textValue().strip())) {
            throw bad(line, field, field + " must be a non-empty string of at most " + MAX_NAME
                    + " characters without surrounding spaces");
        }
        return v.textValue();
    }

    static Instant ts(int line, JsonNode v) {
        if (v == null || !v.isTextual()) {
            throw bad(line, "ts", "ts must be an RFC 3339 timestamp such as 2026-05-01T00:00:00.250Z");
        }
        try {
            return OffsetDateTime.parse(v.textValue()).toInstant();
        } catch (DateTimeParseException e) {
            throw bad(line, "ts", "ts must be an RFC 3339 timestamp such as 2026-05-01T00:00:00.250Z, got '"
                    + v.textValue() + "'");
        }
    }

    private static Double millis(int line, JsonNode node, String field) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isNumber() || !Double.isFinite(v.doubleValue()) || v.doubleValue() < 0
                || v.doubleValue() > LatencyHistograms.MAX_MS) {
            throw bad(line, field, field + " must be a number of milliseconds from 0 to "
                    + (long) LatencyHistograms.MAX_MS + ", got " + v);
        }
        return v.doubleValue();
    }

    static ApiProblem bad(int line, String field, String detail) {
        String what = field != null && detail.startsWith(field) ? detail : "the line " + detail;
        return ApiProblem.badRequest(field == null ? "body" : field, "line " + line + ": " + what
                + "; nothing was stored");
    }
}
