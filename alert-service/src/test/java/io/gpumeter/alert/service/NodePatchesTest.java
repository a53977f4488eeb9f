package io.gpumeter.alert.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.zjsonpatch.JsonPatch;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The JSON patches of the node actions, applied with an RFC 6902 implementation to nodes in different states. */
class NodePatchesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode node(String json) throws Exception {
        return JSON.readTree(json);
    }

    private static JsonNode apply(String patch, JsonNode node) throws Exception {
        return JsonPatch.apply(JSON.readTree(patch), node);
    }

    @Test
    void uncordonRemovesOnlyGpumetersOwnCordon() throws Exception {
        JsonNode ours = node("{\"metadata\":{\"name\":\"n\",\"annotations\":{\"gpumeter.io/cordoned-by\":\"alert-service\","
                + "\"gpumeter.io/cordon-reason\":\"x\",\"keep\":\"me\"}},\"spec\":{\"unschedulable\":true}}");
        JsonNode after = apply(NodePatches.uncordon(), ours);
        assertFalse(after.path("spec").path("unschedulable").asBoolean());
        assertFalse(after.path("metadata").path("annotations").has("gpumeter.io/cordoned-by"));
        assertFalse(after.path("metadata").path("annotations").has("gpumeter.io/cordon-reason"));
        assertEquals("me", after.path("metadata").path("annotations").path("keep").asText());
        JsonNode someoneElses = node("{\"metadata\":{\"name\":\"n\",\"annotations\":{}},\"spec\":{\"unschedulable\":true}}");
        assertThrows(RuntimeException.class, () -> apply(NodePatches.uncordon(), someoneElses));
    }

    @Test
    void unfreezeNeedsGpumetersMarkAndKeepsOtherLabels() throws Exception {
        JsonNode frozen = node("{\"metadata\":{\"name\":\"n\",\"labels\":{\"gpumeter.io/decode-frozen\":\"true\",\"zone\":\"a\"},"
                + "\"annotations\":{\"gpumeter.io/decode-frozen-by\":\"alert-service\"}}}");
        JsonNode after = apply(NodePatches.unfreeze(), frozen);
        assertFalse(after.path("metadata").path("labels").has("gpumeter.io/decode-frozen"));
        assertEquals("a", after.path("metadata").path("labels").path("zone").asText());
        assertThrows(RuntimeException.class, () -> apply(NodePatches.unfreeze(),
                node("{\"metadata\":{\"name\":\"n\",\"labels\":{\"gpumeter.io/decode-frozen\":\"true\"},\"annotations\":{}}}")));
    }

    @Test
    void mergePatchesAndKeys() throws Exception {
        JsonNode cordon = JSON.readTree(NodePatches.cordon("GpuMissing 0123456789abcdef"));
        assertTrue(cordon.path("spec").path("unschedulable").asBoolean());
        assertEquals("alert-service", cordon.path("metadata").path("annotations").path("gpumeter.io/cordoned-by").asText());
        JsonNode annotated = node("{\"metadata\":{\"name\":\"n\",\"annotations\":{\"gpumeter.io/alert-X\":\"x\",\"k\":\"v\"}}}");
        JsonNode after = apply(NodePatches.unannotate("gpumeter.io/alert-X"), annotated);
        assertFalse(after.path("metadata").path("annotations").has("gpumeter.io/alert-X"));
        assertEquals("v", after.path("metadata").path("annotations").path("k").asText());
        apply(NodePatches.unannotate("gpumeter.io/alert-X"), after);
        assertEquals("gpumeter.io/alert-GpuDriverXid", NodePatches.alertAnnotation("GpuDriverXid"));
        assertEquals(63, NodePatches.alertAnnotation("A".repeat(100)).length() - "gpumeter.io/".length());
        assertEquals("gpumeter.io~1cordoned-by", NodePatches.pointer("gpumeter.io/cordoned-by"));
        JsonNode untaint = JSON.readTree(NodePatches.untaint()).path("spec").path("taints").get(0);
        assertEquals("delete", untaint.path("$patch").asText());
    }
}
