package io.gpumeter.collector.governance;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpumeter.collector.kubernetes.Skip;
import io.gpumeter.common.fact.Owner;

import java.time.Instant;

/** The metadata a governance fact's natural key and clock are made of. */
record Meta(String name, String namespace, String uid, String resourceVersion, Instant createdAt, Instant deletedAt,
            Owner owner) {

    /** Reads metadata, skipping the object when a key field is missing. */
    static Meta of(JsonNode object, String kind, boolean namespaced) {
        JsonNode m = object.get("metadata");
        if (m == null || !m.isObject()) {
            throw new Skip("no metadata");
        }
        String name = Json.text(m, "name");
        String namespace = Json.text(m, "namespace");
        String uid = Json.text(m, "uid");
        String rv = Json.text(m, "resourceVersion");
        if (name == null) {
            throw new Skip("no metadata.name");
        }
        if (namespaced && namespace == null) {
            throw new Skip("no metadata.namespace");
        }
        if (namespaced && uid == null) {
            throw new Skip("no metadata.uid");
        }
        if (rv == null) {
            throw new Skip("no metadata.resourceVersion");
        }
        return new Meta(name, namespaced ? namespace : "", uid, rv,
                Json.parseTime(Json.text(m, "creationTimestamp"), "metadata.creationTimestamp"),
                Json.parseTime(Json.text(m, "deletionTimestamp"), "metadata.deletionTimestamp"), Json.owner(m));
    }

    /** The creation time, which every queue-wait figure starts from. */
    Instant requireCreated(String kind) {
        if (createdAt == null) {
            throw new Skip(kind + " without metadata.creationTimestamp");
        }
        return createdAt;
    }
}
