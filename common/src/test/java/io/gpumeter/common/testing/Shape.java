package io.gpumeter.common.testing;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The field paths of a JSON answer ({@code [].group}, {@code [].units[].from}), every element of an array merged,
 * and the paths under which the answer held only null (there the fields below cannot be told).
 */
final class Shape {

    private final Set<String> paths = new TreeSet<>();
    private final Set<String> unknownBelow = new TreeSet<>();

    private Shape() {
    }

    static Shape of(JsonNode json, Set<String> freeKeys) {
        Shape shape = new Shape();
        shape.walk(json, "", freeKeys);
        return shape;
    }

    private void walk(JsonNode node, String at, Set<String> freeKeys) {
        if (node.isArray()) {
            if (node.isEmpty()) {
                unknownBelow.add(at + "[]");
            }
            node.forEach(element -> walk(element, at + "[]", freeKeys));
        } else if (node.isObject()) {
            node.fields().forEachRemaining(field -> {
                String path = at + "." + field.getKey();
                paths.add(path);
                if (field.getValue().isNull()) {
                    unknownBelow.add(path);
                } else if (!freeKeys.contains(field.getKey())) {
                    walk(field.getValue(), path, freeKeys);
                }
            });
        }
    }

    Set<String> paths() {
        return paths;
    }

    /** Whether the answer has this path, or held null (or an empty list) above it, so that it cannot say. */
    boolean shows(String path) {
        if (paths.contains(path)) {
            return true;
        }
        for (String unknown : unknownBelow) {
            if (path.startsWith(unknown + ".") || path.startsWith(unknown + "[]")) {
                return true;
            }
        }
        return false;
    }

    /** The paths a record type reads, through its nested records and lists of records; maps are data. */
    static Set<String> readBy(Class<?> type, String at, Set<String> freeKeys) {
        Set<String> read = new TreeSet<>();
        if (!type.isRecord()) {
            return read;
        }
        for (RecordComponent component : type.getRecordComponents()) {
            JsonProperty renamed = component.getAccessor().getAnnotation(JsonProperty.class);
            if (renamed == null) {
                renamed = fieldAnnotation(type, component.getName());
            }
            String name = renamed != null && !renamed.value().isEmpty() ? renamed.value() : component.getName();
            String path = at + "." + name;
            read.add(path);
            if (freeKeys.contains(name) || Map.class.isAssignableFrom(component.getType())) {
                continue;
            }
            Class<?> element = elementOf(component.getGenericType());
            if (element != null) {
                read.addAll(readBy(element, path + "[]", freeKeys));
            } else {
                read.addAll(readBy(component.getType(), path, freeKeys));
            }
        }
        return read;
    }

    private static JsonProperty fieldAnnotation(Class<?> type, String name) {
        try {
            return type.getDeclaredField(name).getAnnotation(JsonProperty.class);
        } catch (NoSuchFieldException e) {
            return null;
        }
    }

    /** The element type of a collection-typed component, or null when it is not a collection. */
    private static Class<?> elementOf(Type type) {
        if (type instanceof ParameterizedType parameterized
                && parameterized.getRawType() instanceof Class<?> raw && Collection.class.isAssignableFrom(raw)
                && parameterized.getActualTypeArguments()[0] instanceof Class<?> element) {
            return element;
        }
        return null;
    }
}
