package io.gpumeter.collector.governance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Quantity;
import io.gpumeter.collector.kubernetes.Skip;
import io.gpumeter.collector.kubernetes.Timestamps;
import io.gpumeter.common.fact.ObjectCondition;
import io.gpumeter.common.fact.Owner;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Reads custom resources as JSON trees: no typed model exists for Kueue or Volcano objects. */
final class Json {

    static final ObjectMapper MAPPER = new ObjectMapper();

    private Json() {
    }

    static JsonNode tree(Object resource) {
        return MAPPER.valueToTree(resource);
    }

    /** Text at a path, null when absent, empty or not a scalar. */
    static String text(JsonNode node, String... path) {
        JsonNode n = at(node, path);
        if (n == null || n.isNull() || n.isMissingNode() || n.isContainerNode()) {
            return null;
        }
        String s = n.asText();
        return s.isBlank() ? null : s;
    }

    static Integer integer(JsonNode node, String... path) {
        JsonNode n = at(node, path);
        if (n == null || !n.canConvertToInt() && !n.isTextual()) {
            return null;
        }
        if (n.isTextual()) {
            try {
                return Integer.parseInt(n.asText().trim());
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return n.asInt();
    }

    /** An RFC 3339 time; absent is null, garbage skips the object naming the field. */
    static Instant parseTime(String value, String field) {
        return Timestamps.parse(value, field);
    }

    /** A Kubernetes quantity as an exact decimal (cores, bytes, devices). */
    static BigDecimal quantity(JsonNode value, String field) {
        if (value == null || value.isNull() || value.isMissingNode()) {
            return null;
        }
        try {
            return new Quantity(value.asText()).getNumericalAmount().stripTrailingZeros();
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw new Skip("bad quantity in " + field);
        }
    }

    /** An object of resource name to quantity. */
    static Map<String, BigDecimal> quantities(JsonNode map, String field) {
        Map<String, BigDecimal> out = new TreeMap<>();
        if (map != null && map.isObject()) {
            map.fields().forEachRemaining(e -> out.put(e.getKey(), quantity(e.getValue(), field)));
        }
        return out;
    }

    static Map<String, String> strings(JsonNode map) {
        Map<String, String> out = new TreeMap<>();
        if (map != null && map.isObject()) {
            map.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
        }
        return out;
    }

    static Iterable<JsonNode> array(JsonNode node, String... path) {
        JsonNode n = at(node, path);
        return n != null && n.isArray() ? n : List.of();
    }

    /** status.conditions; an entry without type or status makes the object unreadable. */
    static List<ObjectCondition> conditions(JsonNode status, String kind) {
        List<ObjectCondition> out = new ArrayList<>();
        for (JsonNode c : array(status, "conditions")) {
            String type = text(c, "type");
            String state = text(c, "status");
            if (type == null || state == null) {
                throw new Skip(kind + " condition without type or status");
            }
            out.add(new ObjectCondition(type, state, text(c, "reason"), text(c, "message"),
                    parseTime(text(c, "lastTransitionTime"), "status.conditions.lastTransitionTime")));
        }
        return out;
    }

    /** The controller owner reference, else the first one. */
    static Owner owner(JsonNode metadata) {
        Owner first = null;
        for (JsonNode ref : array(metadata, "ownerReferences")) {
            Owner o = new Owner(text(ref, "kind"), text(ref, "name"), text(ref, "apiVersion"));
            if (ref.path("controller").asBoolean(false)) {
                return o;
            }
            first = first == null ? o : first;
        }
        return first;
    }

    private static JsonNode at(JsonNode node, String... path) {
        JsonNode n = node;
        for (String p : path) {
            if (n == null) {
                return null;
            }
            n = n.get(p);
        }
        return n;
    }
}
