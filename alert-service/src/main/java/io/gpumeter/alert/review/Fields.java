package io.gpumeter.alert.review;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpumeter.common.problem.InvalidInput;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Reads a review's JSON field by field, so that whatever is wrong is a 400 naming the field
 * ({@code prevention[1].threshold}) and what was expected. Keys nobody reads are refused too: a misspelt limit must
 * not vanish silently from a review that is kept for good.
 */
final class Fields {

    static final int MAX_TEXT = 200;

    private Fields() {
    }

    static String at(String parent, String key) {
        return parent.isEmpty() ? key : parent + "." + key;
    }

    /** The node must be an object holding no key outside {@code allowed}. */
    static JsonNode object(JsonNode node, String field, Set<String> allowed, String what) {
        if (node == null || !node.isObject()) {
            throw new InvalidInput(field.isEmpty() ? "body" : field, (field.isEmpty() ? "the body" : field)
                    + " must be a JSON object: " + what);
        }
        for (Iterator<String> keys = node.fieldNames(); keys.hasNext(); ) {
            String key = keys.next();
            if (!allowed.contains(key)) {
                throw new InvalidInput(at(field, key), at(field, key) + " is not a field here; the fields are "
                        + String.join(", ", new TreeSet<>(allowed)));
            }
        }
        return node;
    }

    /** Printable text (no control characters) of 1 to {@code max} characters, stripped; null when absent and optional. */
    static String text(JsonNode parent, String key, String at, boolean required, int max) {
        return text(parent, key, at, required, max, false);
    }

    /** As {@link #text}, allowing line breaks and tabs (a summary's paragraphs). */
    static String paragraphs(JsonNode parent, String key, String at, boolean required, int max) {
        return text(parent, key, at, required, max, true);
    }

    private static String text(JsonNode parent, String key, String at, boolean required, int max, boolean lines) {
        String field = at(at, key);
        JsonNode v = parent.get(key);
        if (v == null || v.isNull()) {
            if (required) {
                throw new InvalidInput(field, field + " is required");
            }
            return null;
        }
        String s = v.isTextual() ? v.asText().strip() : null;
        if (s == null || s.isEmpty() || s.length() > max || s.chars().anyMatch(c -> Character.isISOControl(c)
                && !(lines && (c == '\n' || c == '\t' || c == '\r')))) {
            throw new InvalidInput(field, field + " must be text of 1-" + max + " printable characters"
                    + (lines ? " (line breaks allowed)" : ""));
        }
        return s;
    }

    /** Text matching {@code pattern}, which {@code what} describes. */
    static String matching(JsonNode parent, String key, String at, boolean required, Pattern pattern, String what) {
        String s = text(parent, key, at, required, 253);
        if (s != null && !pattern.matcher(s).matches()) {
            throw new InvalidInput(at(at, key), at(at, key) + " must be " + what + ", got '" + s + "'");
        }
        return s;
    }

    /** A JSON number; {@code positive} requires it above 0. */
    static BigDecimal number(JsonNode parent, String key, String at, boolean required, boolean positive) {
        String field = at(at, key);
        JsonNode n = parent.get(key);
        if (n == null || n.isNull()) {
            if (required) {
                throw new InvalidInput(field, field + " is required (a number" + (positive ? " above 0)" : ")"));
            }
            return null;
        }
        if (!n.isNumber() || (positive && n.decimalValue().signum() <= 0)) {
            throw new InvalidInput(field, field + " must be a number" + (positive ? " above 0" : "") + ", got " + n);
        }
        return n.decimalValue().stripTrailingZeros();
    }

    /** A constant of {@code members} by its name, in either case and with '-' for '_'. */
    static <E extends Enum<E>> E member(JsonNode parent, String key, String at, E[] members, E fallback) {
        String v = text(parent, key, at, fallback == null, MAX_TEXT);
        if (v == null) {
            return fallback;
        }
        String wanted = v.toUpperCase(Locale.ROOT).replace('-', '_');
        return Arrays.stream(members).filter(m -> m.name().equals(wanted)).findFirst()
                .orElseThrow(() -> new InvalidInput(at(at, key), at(at, key) + " must be one of "
                        + Arrays.stream(members).map(Enum::name).collect(Collectors.joining(", ")) + ", got '" + v + "'"));
    }
}
