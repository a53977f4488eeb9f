package io.gpumeter.alert.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The patch bodies of the node actions. alert-service may only patch nodes (no get), so ownership is carried on the
 * node itself: gpumeter marks what it changed with an annotation, and an undo is a JSON patch whose first operation
 * tests that mark; if someone else changed the node meanwhile, the whole patch fails and nothing is undone.
 */
final class NodePatches {

    static final String OWNER = "alert-service";
    static final String CORDONED_BY = "gpumeter.io/cordoned-by";
    static final String CORDON_REASON = "gpumeter.io/cordon-reason";
    static final String DECODE_FROZEN = "gpumeter.io/decode-frozen";
    static final String DECODE_FROZEN_BY = "gpumeter.io/decode-frozen-by";
    static final String ALERT_ANNOTATION_PREFIX = "gpumeter.io/alert-";

    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final ObjectMapper JSON = new ObjectMapper();

    private NodePatches() {
    }

    static String cordon(String reason) {
        ObjectNode patch = F.objectNode();
        patch.putObject("spec").put("unschedulable", true);
        patch.putObject("metadata").putObject("annotations").put(CORDONED_BY, OWNER).put(CORDON_REASON, reason);
        return json(patch);
    }

    /** Uncordons only if gpumeter's mark is still there; removes the mark (add-then-remove never fails on absence). */
    static String uncordon() {
        ArrayNode ops = F.arrayNode();
        ops.add(op("test", annotation(CORDONED_BY)).put("value", OWNER));
        ops.add(op("add", "/spec/unschedulable").put("value", false));
        ops.add(op("remove", annotation(CORDONED_BY)));
        ops.add(op("add", annotation(CORDON_REASON)).put("value", ""));
        ops.add(op("remove", annotation(CORDON_REASON)));
        return json(ops);
    }

    static String freeze() {
        ObjectNode patch = F.objectNode();
        ObjectNode metadata = patch.putObject("metadata");
        metadata.putObject("labels").put(DECODE_FROZEN, "true");
        metadata.putObject("annotations").put(DECODE_FROZEN_BY, OWNER);
        return json(patch);
    }

    static String unfreeze() {
        ArrayNode ops = F.arrayNode();
        ops.add(op("test", annotation(DECODE_FROZEN_BY)).put("value", OWNER));
        ops.add(op("add", label(DECODE_FROZEN)).put("value", ""));
        ops.add(op("remove", label(DECODE_FROZEN)));
        ops.add(op("remove", annotation(DECODE_FROZEN_BY)));
        return json(ops);
    }

    /** Strategic merge patch: taints merge by key, so the node's other taints stay. */
    static String taint() {
        ObjectNode patch = F.objectNode();
        patch.putObject("spec").putArray("taints").addObject().put("key", DECODE_FROZEN).put("value", "true")
                .put("effect", "NoSchedule");
        return json(patch);
    }

    static String untaint() {
        ObjectNode patch = F.objectNode();
        patch.putObject("spec").putArray("taints").addObject().put("key", DECODE_FROZEN).put("effect", "NoSchedule")
                .put("$patch", "delete");
        return json(patch);
    }

    /** The annotation key an alert's note goes under: gpumeter.io/alert-<alertname>, trimmed to a valid name. */
    static String alertAnnotation(String alertname) {
        String name = ("alert-" + alertname).replaceAll("[^A-Za-z0-9._-]", "-");
        name = name.length() > 63 ? name.substring(0, 63) : name;
        return "gpumeter.io/" + name.replaceAll("[^A-Za-z0-9]+$", "");
    }

    static String annotate(String key, String value) {
        ObjectNode patch = F.objectNode();
        patch.putObject("metadata").putObject("annotations").put(key, value);
        return json(patch);
    }

    /** JSON patch removing the annotation, whether or not it is still there. */
    static String unannotate(String key) {
        ArrayNode ops = F.arrayNode();
        ops.add(op("add", annotation(key)).put("value", ""));
        ops.add(op("remove", annotation(key)));
        return json(ops);
    }

    private static ObjectNode op(String op, String path) {
        return F.objectNode().put("op", op).put("path", path);
    }

    private static String annotation(String key) {
        return "/metadata/annotations/" + pointer(key);
    }

    private static String label(String key) {
        return "/metadata/labels/" + pointer(key);
    }

    /** RFC 6901: '~' as ~0 and '/' as ~1. */
    static String pointer(String key) {
        return key.replace("~", "~0").replace("/", "~1");
    }

    private static String json(JsonNode node) {
        try {
            return JSON.writeValueAsString(node);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
