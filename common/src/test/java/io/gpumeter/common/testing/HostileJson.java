package io.gpumeter.common.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ContainerNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Structural damage to one JSON document, at a random place in it: a value of the wrong type, an array for an
 * object and the reverse, nesting deeper than any parser allows, numbers no type holds, unknown and missing fields.
 */
final class HostileJson {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    /** Stands in for raw JSON that no tree can hold (deep nesting, huge numbers) until the text is written. */
    private static final String RAW = "@@raw@@";
    private static final String[] HUGE = {"1e999999", "-1e999999", "123456789012345678901234567890123456789012",
            "-9223372036854775809", "18446744073709551616", "0.0000000000000000000000000000000000000001",
            "1" + "0".repeat(2000)};

    private final Random random;

    HostileJson(Random random) {
        this.random = random;
    }

    /** A damaged copy of {@code input}, or null when it is not one JSON document. */
    byte[] damage(byte[] input) {
        JsonNode root;
        try {
            root = JSON.readTree(input);
        } catch (IOException e) {
            return null;
        }
        if (root == null || root.isMissingNode()) {
            return null;
        }
        List<JsonNode> containers = new ArrayList<>();
        collect(root, containers);
        String raw = null;
        int what = random.nextInt(8);
        if (containers.isEmpty() || what == 7) {
            raw = deep();
            root = NODES.textNode(RAW);
        } else {
            ContainerNode<?> parent = (ContainerNode<?>) containers.get(random.nextInt(containers.size()));
            JsonNode old = pick(parent);
            JsonNode replacement = switch (what) {
                case 0 -> wrongScalar(old);
                case 1 -> NODES.arrayNode().add(old == null ? NODES.nullNode() : old);
                case 2 -> NODES.objectNode().set("value", old == null ? NODES.nullNode() : old);
                case 3 -> {
                    raw = HUGE[random.nextInt(HUGE.length)];
                    yield NODES.textNode(RAW);
                }
                case 4 -> {
                    raw = deep();
                    yield NODES.textNode(RAW);
                }
                default -> null; // 5: drop it, 6: an unknown field beside it
            };
            put(parent, replacement, what == 6);
        }
        String text = root.toString();
        if (raw != null) {
            text = text.replace("\"" + RAW + "\"", raw);
        }
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static void collect(JsonNode node, List<JsonNode> out) {
        if (node.isContainerNode() && !node.isEmpty()) {
            out.add(node);
            node.forEach(child -> collect(child, out));
        } else if (node.isObject()) {
            out.add(node);
        }
    }

    private String key;
    private int index;

    private JsonNode pick(ContainerNode<?> parent) {
        if (parent instanceof ObjectNode o) {
            List<String> names = new ArrayList<>();
            o.fieldNames().forEachRemaining(names::add);
            key = names.isEmpty() ? "fuzz" : names.get(random.nextInt(names.size()));
            return o.get(key);
        }
        index = random.nextInt(parent.size());
        return parent.get(index);
    }

    private void put(ContainerNode<?> parent, JsonNode value, boolean beside) {
        if (parent instanceof ObjectNode o) {
            if (beside) {
                o.put("unknownField" + random.nextInt(100), random.nextInt(1000));
            } else if (value == null) {
                o.remove(key);
            } else {
                o.set(key, value);
            }
        } else {
            ArrayNode a = (ArrayNode) parent;
            if (beside) {
                a.add(NODES.objectNode().put("unknownField", true));
            } else if (value == null) {
                a.remove(index);
            } else {
                a.set(index, value);
            }
        }
    }

    private JsonNode wrongScalar(JsonNode old) {
        List<JsonNode> choices = new ArrayList<>(List.of(NODES.textNode("not-a-" + random.nextInt(10)),
                NODES.numberNode(-1), NODES.numberNode(1.5), NODES.booleanNode(true), NODES.nullNode(),
                NODES.textNode(""), NODES.arrayNode(), NODES.objectNode()));
        if (old != null) {
            choices.removeIf(c -> c.getNodeType() == old.getNodeType() && !old.isContainerNode());
        }
        return choices.get(random.nextInt(choices.size()));
    }

    /** Arrays or objects nested far past any parser's depth limit. */
    private String deep() {
        int depth = 1000 + random.nextInt(9000);
        boolean arrays = random.nextBoolean();
        return arrays ? "[".repeat(depth) + "]".repeat(depth) : "{\"a\":".repeat(depth) + "1" + "}".repeat(depth);
    }
}
