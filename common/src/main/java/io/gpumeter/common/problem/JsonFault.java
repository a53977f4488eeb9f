package io.gpumeter.common.problem;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.InvalidNullException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;

import java.math.BigInteger;
import java.time.Duration;
import java.time.temporal.TemporalAccessor;
import java.util.Arrays;
import java.util.Collection;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * What was wrong with a JSON body, in plain words and with the path of the offending field. Built from the parser's
 * facts (token, target type, location), never from the library's own message, which names classes.
 */
public record JsonFault(String what, String field) {

    private static final int MAX_QUOTED = 40;

    /** The problem detail: the field path, then what was wrong. */
    public String detail() {
        return field == null ? what : field + ": " + what;
    }

    public static JsonFault of(JsonProcessingException e) {
        String field = e instanceof JsonMappingException m ? path(m) : null;
        return new JsonFault(what(e), field);
    }

    private static String what(JsonProcessingException e) {
        if (e instanceof StreamConstraintsException) {
            return "the body nests too deeply or holds a value too long to read";
        }
        if (e instanceof JsonEOFException) {
            return "the body ends before its JSON document does" + at(e.getLocation());
        }
        if (e instanceof InputCoercionException) {
            return "the number is out of range" + at(e.getLocation());
        }
        if (e instanceof UnrecognizedPropertyException u) {
            return "unknown field '" + quoted(u.getPropertyName()) + "'";
        }
        if (e instanceof InvalidNullException) {
            return "must not be null";
        }
        if (e instanceof InvalidFormatException f) {
            return "expected " + kind(f.getTargetType()) + ", got '" + quoted(String.valueOf(f.getValue())) + "'";
        }
        if (e instanceof ValueInstantiationException v) {
            String own = ownMessage(v.getCause());
            return own != null ? own : "the value does not fit " + kind(v.getType() == null ? null : v.getType().getRawClass());
        }
        if (e instanceof MismatchedInputException m) {
            return (path(m) == null ? "the body must be " : "expected ") + kind(m.getTargetType());
        }
        if (e instanceof JsonMappingException) {
            // a parse failure met while binding (a cut-off document, a number out of range) comes wrapped
            return e.getCause() instanceof JsonProcessingException cause ? what(cause) : "the body does not fit this endpoint";
        }
        return "the body is not valid JSON" + at(e.getLocation());
    }

    /** A message the product composed itself (thrown from its own code), which a user may read; else null. */
    private static String ownMessage(Throwable cause) {
        if (cause == null || cause.getMessage() == null) {
            return null;
        }
        if (cause instanceof ApiProblem || cause instanceof InvalidInput) {
            return cause.getMessage();
        }
        StackTraceElement[] frames = cause.getStackTrace();
        boolean ours = (cause instanceof IllegalArgumentException || cause instanceof IllegalStateException)
                && frames.length > 0 && frames[0].getClassName().startsWith("io.gpumeter.");
        return ours ? cause.getMessage() : null;
    }

    static String kind(Class<?> type) {
        if (type == null) {
            return "a different value";
        }
        if (type == boolean.class || type == Boolean.class) {
            return "true or false";
        }
        if (type == int.class || type == long.class || type == short.class || type == byte.class
                || type == Integer.class || type == Long.class || type == Short.class || type == Byte.class
                || type == BigInteger.class) {
            return "a whole number";
        }
        if (type.isPrimitive() && type != char.class || Number.class.isAssignableFrom(type)) {
            return "a number";
        }
        if (CharSequence.class.isAssignableFrom(type) || type == char.class || type == Character.class) {
            return "a string";
        }
        if (type.isEnum()) {
            return "one of " + Arrays.stream(type.getEnumConstants()).map(c -> ((Enum<?>) c).name())
                    .collect(Collectors.joining(", "));
        }
        if (TemporalAccessor.class.isAssignableFrom(type)) {
            return "an RFC 3339 timestamp such as 2026-05-01T00:00:00Z";
        }
        if (type == Duration.class) {
            return "an ISO 8601 duration such as PT5M";
        }
        if (type == UUID.class) {
            return "a UUID";
        }
        if (type.isArray() || Collection.class.isAssignableFrom(type)) {
            return "an array";
        }
        return "an object";
    }

    private static String path(JsonMappingException m) {
        if (m.getPath().isEmpty()) {
            return null;
        }
        StringBuilder path = new StringBuilder();
        for (JsonMappingException.Reference r : m.getPath()) {
            if (r.getFieldName() != null) {
                path.append(path.isEmpty() ? "" : ".").append(quoted(r.getFieldName()));
            } else if (r.getIndex() >= 0) {
                path.append('[').append(r.getIndex()).append(']');
            }
        }
        return path.isEmpty() ? null : path.toString();
    }

    private static String at(JsonLocation location) {
        if (location == null || location.getLineNr() < 1) {
            return "";
        }
        return " at line " + location.getLineNr() + " column " + location.getColumnNr();
    }

    /** The caller's own text, cut short and without control characters. */
    private static String quoted(String text) {
        String clean = text == null ? "" : text.replaceAll("\\p{Cntrl}", "?");
        return clean.length() > MAX_QUOTED ? clean.substring(0, MAX_QUOTED) + "…" : clean;
    }
}
