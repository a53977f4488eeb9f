package io.gpumeter.ledger.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.SerializableString;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The tokens of the form the services write facts in, read one after the other: each step reads what that form has
 * next, or throws {@link #DIFFERS} at the first token that is otherwise, the parser left there.
 */
final class WrittenForm {

    private WrittenForm() {
    }

    /** Not the written form: control returns to the reader's caller, without a stack trace. */
    static final class Differs extends RuntimeException {
        private Differs() {
            super(null, null, false, false);
        }
    }

    static final Differs DIFFERS = new Differs();

    /**
     * The object that starts at the parser's current token ({@code START_OBJECT}) as {@code fields} reads it from its
     * first field to its last, the parser left on its {@code END_OBJECT}; or null at the first token that differs
     * from the written form, the parser left there.
     */
    static <T> T whole(JsonParser p, Element<T> fields) throws IOException {
        try {
            if (p.currentToken() != JsonToken.START_OBJECT) {
                throw DIFFERS;
            }
            T value = fields.read(p);
            end(p);
            return value;
        } catch (Differs e) {
            return null;
        }
    }

    /** How an element is read: a map's value from its current token, an array's object from inside it. */
    interface Element<T> {
        T read(JsonParser p) throws IOException;
    }

    /**
     * An object whose keys are the map's, each key once, each value read by {@code value} (never null). The map is
     * made immutable at once, so that the fact's own immutable copy of it is the map itself, not a second one.
     */
    @SuppressWarnings("unchecked")
    static <V> Map<String, V> entries(JsonParser p, SerializableString name, Element<V> value) throws IOException {
        field(p, name);
        start(p, JsonToken.START_OBJECT);
        List<Map.Entry<String, V>> entries = new ArrayList<>();
        for (String key = p.nextFieldName(); key != null; key = p.nextFieldName()) {
            p.nextToken();
            entries.add(Map.entry(key, value.read(p)));
        }
        closes(p, JsonToken.END_OBJECT);
        try {
            return Map.ofEntries(entries.toArray(new Map.Entry[0]));
        } catch (IllegalArgumentException repeatedKey) {
            throw DIFFERS;
        }
    }

    /** An array of objects, each read by {@code element} from its first field to its last. */
    static <T> List<T> objects(JsonParser p, SerializableString name, Element<T> element) throws IOException {
        field(p, name);
        start(p, JsonToken.START_ARRAY);
        List<T> objects = new ArrayList<>(1);
        while (p.nextToken() == JsonToken.START_OBJECT) {
            objects.add(element.read(p));
            end(p);
        }
        closes(p, JsonToken.END_ARRAY);
        return objects;
    }

    /** The current token as text. */
    static String text(JsonParser p) throws IOException {
        requireString(p);
        return p.getText();
    }

    /** Refuses a current token that is not a string. */
    static void requireString(JsonParser p) {
        if (p.currentToken() != JsonToken.VALUE_STRING) {
            throw DIFFERS;
        }
    }

    static void field(JsonParser p, SerializableString name) throws IOException {
        if (!p.nextFieldName(name)) {
            throw DIFFERS;
        }
    }

    static String string(JsonParser p, SerializableString name) throws IOException {
        return stringOrNull(p, name) ? p.getText() : null;
    }

    /**
     * Moves to field {@code name}'s value: true on a string (the parser left on it), false on a JSON null; any other
     * value differs from the written form.
     */
    static boolean stringOrNull(JsonParser p, SerializableString name) throws IOException {
        field(p, name);
        JsonToken token = p.nextToken();
        if (token == JsonToken.VALUE_NULL) {
            return false;
        }
        requireString(p);
        return true;
    }

    static boolean bool(JsonParser p, SerializableString name) throws IOException {
        field(p, name);
        return switch (p.nextToken()) {
            case VALUE_TRUE -> true;
            case VALUE_FALSE -> false;
            default -> throw DIFFERS;
        };
    }

    /** An instant in the UTC form, or null; one instance for each text the body repeats. */
    static Instant instant(JsonParser p, SerializableString name, Repeats repeats) throws IOException {
        if (!stringOrNull(p, name)) {
            return null;
        }
        Instant instant = repeats.instant(p);
        if (instant == null) {
            throw DIFFERS;
        }
        return instant;
    }

    static long integer(JsonParser p, SerializableString name, boolean small) throws IOException {
        field(p, name);
        p.nextToken();
        return integer(p, small);
    }

    /** The current token as a whole number that fits an int ({@code small}) or a long, written as an integer. */
    static long integer(JsonParser p, boolean small) throws IOException {
        if (p.currentToken() != JsonToken.VALUE_NUMBER_INT) {
            throw DIFFERS;
        }
        JsonParser.NumberType kind = p.getNumberType();
        if (kind != JsonParser.NumberType.INT && (small || kind != JsonParser.NumberType.LONG)) {
            throw DIFFERS;
        }
        return p.getLongValue();
    }

    /** An object's field holding an object or null: whether it holds an object, the parser on its start. */
    static boolean objectOrNull(JsonParser p, SerializableString name) throws IOException {
        field(p, name);
        JsonToken token = p.nextToken();
        if (token == JsonToken.VALUE_NULL) {
            return false;
        }
        if (token != JsonToken.START_OBJECT) {
            throw DIFFERS;
        }
        return true;
    }

    static void start(JsonParser p, JsonToken token) throws IOException {
        if (p.nextToken() != token) {
            throw DIFFERS;
        }
    }

    static void end(JsonParser p) throws IOException {
        start(p, JsonToken.END_OBJECT);
    }

    static void closes(JsonParser p, JsonToken token) {
        if (p.currentToken() != token) {
            throw DIFFERS;
        }
    }
}
