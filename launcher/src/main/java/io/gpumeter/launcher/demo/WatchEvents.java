package io.gpumeter.launcher.demo;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.gpumeter.launcher.simulator.Rfc3339;

import java.io.UncheckedIOException;
import java.time.Instant;

/** Kubernetes objects as the watch events the collector's replay endpoint reads, one JSON line each. */
final class WatchEvents {

    static final ObjectMapper JSON = new ObjectMapper();

    private WatchEvents() {
    }

    /** {@code {"type":…,"object":…}}. */
    static String line(String type, JsonNode object) {
        ObjectNode event = JSON.createObjectNode().put("type", type);
        event.set("object", object);
        return event.toString();
    }

    /** A fabric8 object as Kubernetes writes it, wrapped in an event. */
    static String line(String type, HasMetadata object) {
        try {
            return line(type, JSON.readTree(Serialization.asJson(object)));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** An object's apiVersion, kind and metadata; {@code namespace} null for a cluster-scoped object. */
    static ObjectNode object(String apiVersion, String kind, String name, String namespace, String uid,
                             String resourceVersion, Instant created) {
        ObjectNode o = JSON.createObjectNode().put("apiVersion", apiVersion).put("kind", kind);
        ObjectNode meta = o.putObject("metadata").put("name", name);
        if (namespace != null) {
            meta.put("namespace", namespace);
        }
        meta.put("uid", uid).put("resourceVersion", resourceVersion).put("creationTimestamp", Rfc3339.format(created));
        return o;
    }
}
