package io.gpumeter.common.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import io.gpumeter.common.fact.Owner;
import io.gpumeter.common.fact.WatchEventType;

import java.io.IOException;
import java.time.Instant;
import java.util.Map;

import static io.gpumeter.common.json.PodVersionFields.*;

/**
 * What a pod version, its governance view and a carried view write alike: the fields both records begin with, the
 * owner, the GPU resources, and instants as the mapper's own serialiser writes them.
 */
final class PodVersionParts {

    private PodVersionParts() {
    }

    static void owner(JsonGenerator gen, Owner owner) throws IOException {
        if (owner == null) {
            nullField(gen, OWNER);
            return;
        }
        startObject(gen, OWNER);
        string(gen, KIND, owner.kind());
        string(gen, NAME, owner.name());
        string(gen, API_VERSION, owner.apiVersion());
        gen.writeEndObject();
    }

    static void amounts(JsonGenerator gen, Map<String, Long> amounts) throws IOException {
        startObject(gen, GPU_RESOURCES);
        for (Map.Entry<String, Long> amount : amounts.entrySet()) {
            gen.writeNumberField(amount.getKey(), amount.getValue().longValue());
        }
        gen.writeEndObject();
    }

    /** The fields a pod version and its governance view begin with, in the order of both records. */
    static void head(JsonGenerator gen, SerializerProvider provider, JsonSerializer<Object> instants, String uid,
                             String namespace, String name, String resourceVersion, WatchEventType type,
                             Instant observedAt, Instant createdAt, Instant scheduledAt) throws IOException {
        string(gen, UID, uid);
        string(gen, NAMESPACE, namespace);
        string(gen, NAME, name);
        string(gen, RESOURCE_VERSION, resourceVersion);
        string(gen, TYPE, type == null ? null : type.name());
        instant(gen, provider, instants, OBSERVED_AT, observedAt);
        instant(gen, provider, instants, CREATED_AT, createdAt);
        instant(gen, provider, instants, SCHEDULED_AT, scheduledAt);
    }

    /** The mapper's serialiser of instants, looked up once a pod: a lookup per field was a sixth of the writing. */
    static JsonSerializer<Object> instants(SerializerProvider provider) throws IOException {
        return provider.findValueSerializer(Instant.class);
    }

    static void instant(JsonGenerator gen, SerializerProvider provider, JsonSerializer<Object> instants,
                                SerializableString field, Instant value) throws IOException {
        gen.writeFieldName(field);
        if (value == null) {
            gen.writeNull();
        } else {
            instants.serialize(value, gen, provider); // as the mapper writes one
        }
    }
}
