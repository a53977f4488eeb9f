package io.gpumeter.collector.kubernetes;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.gpumeter.common.fact.NodeFact;
import io.gpumeter.common.fact.RegisteredGpu;
import io.gpumeter.common.fact.WatchEventType;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Reduces a Node to its GPU inventory: labels and HAMi's registration of its cards. */
public final class NodeTranslator {

    private NodeTranslator() {
    }

    public static NodeFact translate(Node node, WatchEventType type, Instant observedAt) {
        ObjectMeta meta = Objects.metadata(node.getMetadata(), false);
        Map<String, String> annotations = meta.getAnnotations() == null ? Map.of() : meta.getAnnotations();
        List<RegisteredGpu> gpus;
        try {
            gpus = HamiAnnotations.parseNodeRegister(annotations.get(HamiAnnotations.NODE_REGISTER));
        } catch (IllegalArgumentException e) {
            throw new Skip("invalid " + HamiAnnotations.NODE_REGISTER + " annotation");
        }
        if (meta.getLabels() != null && meta.getLabels().containsValue(null)) {
            throw new Skip("a label without value"); // the API server stores none; a recorded stream may
        }
        // dated when the version was written, so that a recorded history replayed later keeps its label changes' instants
        return new NodeFact(meta.getName(), meta.getUid(), meta.getResourceVersion(), type,
                ManagedFieldTimes.written(meta.getManagedFields(), type, observedAt), meta.getLabels(), gpus);
    }
}
