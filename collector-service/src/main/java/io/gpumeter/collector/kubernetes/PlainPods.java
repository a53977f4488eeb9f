package io.gpumeter.collector.kubernetes;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;

import java.io.IOException;

import static io.gpumeter.collector.kubernetes.PlainTokens.bool;
import static io.gpumeter.collector.kubernetes.PlainTokens.list;
import static io.gpumeter.collector.kubernetes.PlainTokens.next;
import static io.gpumeter.collector.kubernetes.PlainTokens.object;
import static io.gpumeter.collector.kubernetes.PlainTokens.once;
import static io.gpumeter.collector.kubernetes.PlainTokens.string;
import static io.gpumeter.collector.kubernetes.PlainTokens.strings;

/**
 * Binds a plainly written pod from its tokens, setting only the fields the translators of a pod read
 * ({@link PodTranslator}, the governance view's PodStatusTranslator) and skipping every other one unread.
 * <p>
 * It takes a field only in the JSON type the model declares: a string for a string, an int for an Integer, true or
 * false for a Boolean, an object or an array for the classes and lists the model is made of. Anything else in a field
 * it reads (null, a number where a string is meant, a quantity that does not parse…) declines the whole pod, which
 * the Kubernetes model's own binding then decides, coercions and refusals included. So what it binds is what that
 * binding would have set in the same fields, and it never refuses anything itself. A translator that starts reading
 * another field of a pod must have it read here too ({@link PlainPodSpecs} reads its spec, {@link PlainPodStatuses} its
 * status): {@code PlainPodsTest}
 * holds the two bindings' facts equal.
 */
final class PlainPods {

    private PlainPods() {
    }

    /** The pod in {@code data[offset, offset + length)}, one JSON object; null when the model's binding must decide. */
    static Pod read(JsonFactory json, byte[] data, int offset, int length) {
        try (JsonParser p = json.createParser(data, offset, length)) {
            Pod pod = pod(p, p.nextToken());
            return p.nextToken() == null ? pod : null;
        } catch (PlainTokens.Declined | IOException | IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * The rest of a pod object whose first two fields, {@code "kind":"Pod"} and {@code apiVersion} in either order,
     * the parser has just read (an API server writes them first); null when the model's binding must decide. The
     * parser is left on the object's closing brace.
     */
    static Pod rest(JsonParser p, String apiVersion) {
        Pod pod = new Pod();
        pod.setKind("Pod");
        pod.setApiVersion(apiVersion);
        try {
            return fields(p, next(p), pod, true);
        } catch (PlainTokens.Declined | IOException | IllegalArgumentException e) {
            return null;
        }
    }

    private static Pod pod(JsonParser p, JsonToken start) throws IOException {
        return fields(p, object(p, start), new Pod(), false);
    }

    /** A pod's fields from {@code first}; kind or apiVersion named twice is left to the line's own reading. */
    private static Pod fields(JsonParser p, JsonToken first, Pod pod, boolean kindRead) throws IOException {
        boolean kindSeen = kindRead;
        boolean apiVersionSeen = kindRead;
        for (JsonToken value = first; value != null; value = next(p)) {
            switch (p.currentName()) {
                case "kind" -> {
                    kindSeen = once(kindSeen);
                    pod.setKind(string(p, value));
                }
                case "apiVersion" -> {
                    apiVersionSeen = once(apiVersionSeen);
                    pod.setApiVersion(string(p, value));
                }
                case "metadata" -> pod.setMetadata(metadata(p, value));
                case "spec" -> pod.setSpec(PlainPodSpecs.spec(p, value));
                case "status" -> pod.setStatus(PlainPodStatuses.status(p, value));
                default -> p.skipChildren();
            }
        }
        return pod;
    }

    private static ObjectMeta metadata(JsonParser p, JsonToken start) throws IOException {
        ObjectMeta meta = new ObjectMeta();
        for (JsonToken value = object(p, start); value != null; value = next(p)) {
            switch (p.currentName()) {
                case "name" -> meta.setName(string(p, value));
                case "namespace" -> meta.setNamespace(string(p, value));
                case "uid" -> meta.setUid(string(p, value));
                case "resourceVersion" -> meta.setResourceVersion(string(p, value));
                case "creationTimestamp" -> meta.setCreationTimestamp(string(p, value));
                case "deletionTimestamp" -> meta.setDeletionTimestamp(string(p, value));
                case "labels" -> meta.setLabels(strings(p, value));
                case "annotations" -> meta.setAnnotations(strings(p, value));
                case "ownerReferences" -> meta.setOwnerReferences(list(p, value, PlainPods::ownerReference));
                case "managedFields" -> meta.setManagedFields(list(p, value, PlainPods::managedField));
                default -> p.skipChildren();
            }
        }
        return meta;
    }

    /** An entry's time alone: what a pod's fact reads of it (when its version was written). */
    private static ManagedFieldsEntry managedField(JsonParser p, JsonToken start) throws IOException {
        ManagedFieldsEntry entry = new ManagedFieldsEntry();
        for (JsonToken value = object(p, start); value != null; value = next(p)) {
            if ("time".equals(p.currentName())) {
                entry.setTime(string(p, value));
            } else {
                p.skipChildren();
            }
        }
        return entry;
    }

    private static OwnerReference ownerReference(JsonParser p, JsonToken start) throws IOException {
        OwnerReference ref = new OwnerReference();
        for (JsonToken value = object(p, start); value != null; value = next(p)) {
            switch (p.currentName()) {
                case "apiVersion" -> ref.setApiVersion(string(p, value));
                case "kind" -> ref.setKind(string(p, value));
                case "name" -> ref.setName(string(p, value));
                case "uid" -> ref.setUid(string(p, value));
                case "controller" -> ref.setController(bool(value));
                default -> p.skipChildren();
            }
        }
        return ref;
    }
}
