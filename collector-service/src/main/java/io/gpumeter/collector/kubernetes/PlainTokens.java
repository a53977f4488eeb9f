package io.gpumeter.collector.kubernetes;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Token steps for a reader that takes JSON only in the types it expects ({@link PlainPods}): any other value throws
 * {@link Declined}, and the reader's caller hands the input to a general binding instead.
 */
final class PlainTokens {

    /** Declines the input; thrown often enough on odd input that it carries no stack trace. */
    static final class Declined extends RuntimeException {
        private Declined() {
            super(null, null, false, false);
        }
    }

    private static final Declined DECLINED = new Declined();

    private PlainTokens() {
    }

    // The tokens of one object: object(…) enters it and gives its first field's value, next(…) each further one; both
    // leave the parser on the value's first token with its field's name current, and give null at the closing brace.

    static JsonToken object(JsonParser p, JsonToken start) throws IOException {
        if (start != JsonToken.START_OBJECT) {
            throw DECLINED;
        }
        return next(p);
    }

    /** True, for a field not {@code seen} before; a field named a second time declines. */
    static boolean once(boolean seen) {
        if (seen) {
            throw DECLINED;
        }
        return true;
    }

    static JsonToken next(JsonParser p) throws IOException {
        return p.nextToken() == JsonToken.FIELD_NAME ? p.nextToken() : null;
    }

    static String string(JsonParser p, JsonToken value) throws IOException {
        if (value != JsonToken.VALUE_STRING) {
            throw DECLINED;
        }
        return p.getText();
    }

    static Integer integer(JsonParser p, JsonToken value) throws IOException {
        if (value != JsonToken.VALUE_NUMBER_INT || p.getNumberType() != JsonParser.NumberType.INT) {
            throw DECLINED;
        }
        return p.getIntValue();
    }

    static Boolean bool(JsonToken value) {
        return switch (value) {
            case VALUE_TRUE -> Boolean.TRUE;
            case VALUE_FALSE -> Boolean.FALSE;
            default -> throw DECLINED;
        };
    }

    static Map<String, String> strings(JsonParser p, JsonToken start) throws IOException {
        Map<String, String> map = new LinkedHashMap<>();
        for (JsonToken value = object(p, start); value != null; value = next(p)) {
            map.put(p.currentName(), string(p, value));
        }
        return map;
    }

    interface Element<T> {
        T read(JsonParser p, JsonToken start) throws IOException;
    }

    static <T> List<T> list(JsonParser p, JsonToken start, Element<T> element) throws IOException {
        if (start != JsonToken.START_ARRAY) {
            throw DECLINED;
        }
        List<T> list = new ArrayList<>();
        for (JsonToken token = p.nextToken(); token != JsonToken.END_ARRAY; token = p.nextToken()) {
            list.add(element.read(p, token));
        }
        return list;
    }
}
