package io.gpumeter.ledger.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.SerializedString;
import io.gpumeter.common.fact.Owner;
import io.gpumeter.common.fact.PodClaim;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.common.fact.VgpuGrant;
import io.gpumeter.common.fact.WatchEventType;
import io.gpumeter.common.json.IsoInstants;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a pod version only in the form the services write one (PodVersionJson): every field present, in the
 * record's order, no other; instants in the UTC form; integers as integers; booleans as booleans; no key twice
 * in labels or GPU resources. Anything else answers null, and the caller reads the object with the mapper's general
 * deserializer, which decides what is accepted and how. What this reader accepts, the general one reads to an equal
 * fact, and the bytes read are what the ledger would store for it but for string escapes, whitespace and the order
 * of map keys, none of which changes what the ledger's decoder or PostgreSQL's json operators read from them.
 */
final class CanonicalPodFact {

    private static final SerializableString UID = new SerializedString("uid");
    private static final SerializableString NAMESPACE = new SerializedString("namespace");
    private static final SerializableString NAME = new SerializedString("name");
    private static final SerializableString RESOURCE_VERSION = new SerializedString("resourceVersion");
    private static final SerializableString TYPE = new SerializedString("type");
    private static final SerializableString OBSERVED_AT = new SerializedString("observedAt");
    private static final SerializableString CREATED_AT = new SerializedString("createdAt");
    private static final SerializableString SCHEDULED_AT = new SerializedString("scheduledAt");
    private static final SerializableString NODE_NAME = new SerializedString("nodeName");
    private static final SerializableString PHASE = new SerializedString("phase");
    private static final SerializableString SCHEDULER_NAME = new SerializedString("schedulerName");
    private static final SerializableString ALL_TERMINATED = new SerializedString("allTerminated");
    private static final SerializableString LAST_FINISHED_AT = new SerializedString("lastFinishedAt");
    private static final SerializableString DELETION_TIMESTAMP = new SerializedString("deletionTimestamp");
    private static final SerializableString OWNER = new SerializedString("owner");
    private static final SerializableString KIND = new SerializedString("kind");
    private static final SerializableString LABELS = new SerializedString("labels");
    private static final SerializableString GPU_RESOURCES = new SerializedString("gpuResources");
    private static final SerializableString VGPUS = new SerializedString("vgpus");
    private static final SerializableString CONTAINER = new SerializedString("container");
    private static final SerializableString UUID = new SerializedString("uuid");
    private static final SerializableString MEMORY_MIB = new SerializedString("memoryMib");
    private static final SerializableString CORES = new SerializedString("cores");
    private static final SerializableString CLAIMS = new SerializedString("claims");
    private static final SerializableString CLAIM_NAME = new SerializedString("claimName");
    private static final SerializableString TEMPLATE_NAME = new SerializedString("templateName");

    private CanonicalPodFact() {
    }

    /** Not the written form: control returns to {@link #read}, without a stack trace. */
    private static final class Differs extends RuntimeException {
        Differs() {
            super(null, null, false, false);
        }
    }

    private static final Differs DIFFERS = new Differs();

    /**
     * The pod version whose object starts at the parser's current token ({@code START_OBJECT}), the parser left on
     * its {@code END_OBJECT}; or null at the first token that differs from the written form, the parser left there.
     */
    static PodFact read(JsonParser p) throws IOException {
        try {
            return pod(p);
        } catch (Differs e) {
            return null;
        }
    }

    private static PodFact pod(JsonParser p) throws IOException {
        if (p.currentToken() != JsonToken.START_OBJECT) {
            throw DIFFERS;
        }
        String uid = string(p, UID);
        String namespace = string(p, NAMESPACE);
        String name = string(p, NAME);
        String resourceVersion = string(p, RESOURCE_VERSION);
        WatchEventType type = type(string(p, TYPE));
        Instant observedAt = instant(p, OBSERVED_AT);
        Instant createdAt = instant(p, CREATED_AT);
        Instant scheduledAt = instant(p, SCHEDULED_AT);
        String nodeName = string(p, NODE_NAME);
        String phase = string(p, PHASE);
        String schedulerName = string(p, SCHEDULER_NAME);
        field(p, ALL_TERMINATED);
        boolean allTerminated = switch (p.nextToken()) {
            case VALUE_TRUE -> true;
            case VALUE_FALSE -> false;
            default -> throw DIFFERS;
        };
        Instant lastFinishedAt = instant(p, LAST_FINISHED_AT);
        Instant deletionTimestamp = instant(p, DELETION_TIMESTAMP);
        Owner owner = owner(p);
        Map<String, String> labels = entries(p, LABELS, CanonicalPodFact::text);
        Map<String, Long> gpuResources = entries(p, GPU_RESOURCES, q -> integer(q, false));
        List<VgpuGrant> vgpus = objects(p, VGPUS, CanonicalPodFact::vgpu);
        List<PodClaim> claims = objects(p, CLAIMS, CanonicalPodFact::claim);
        end(p);
        return new PodFact(uid, namespace, name, resourceVersion, type, observedAt, createdAt, scheduledAt, nodeName,
                phase, schedulerName, allTerminated, lastFinishedAt, deletionTimestamp, owner, labels, gpuResources,
                vgpus, claims);
    }

    private static Owner owner(JsonParser p) throws IOException {
        field(p, OWNER);
        JsonToken token = p.nextToken();
        if (token == JsonToken.VALUE_NULL) {
            return null;
        }
        if (token != JsonToken.START_OBJECT) {
            throw DIFFERS;
        }
        Owner owner = new Owner(string(p, KIND), string(p, NAME));
        end(p);
        return owner;
    }

    /** How an element is read: a map's value from its current token, an array's object from inside it. */
    private interface Element<T> {
        T read(JsonParser p) throws IOException;
    }

    /** An object whose keys are the map's, each key once, each value read by {@code value}. */
    private static <V> Map<String, V> entries(JsonParser p, SerializableString name, Element<V> value) throws IOException {
        field(p, name);
        start(p, JsonToken.START_OBJECT);
        Map<String, V> entries = new HashMap<>();
        for (String key = p.nextFieldName(); key != null; key = p.nextFieldName()) {
            p.nextToken();
            if (entries.put(key, value.read(p)) != null) {
                throw DIFFERS;
            }
        }
        closes(p, JsonToken.END_OBJECT);
        return entries;
    }

    /** An array of objects, each read by {@code element} from its first field to its last. */
    private static <T> List<T> objects(JsonParser p, SerializableString name, Element<T> element) throws IOException {
        field(p, name);
        start(p, JsonToken.START_ARRAY);
        List<T> objects = new ArrayList<>(1);
        while (p.nextToken() == JsonToken.START_OBJECT) {
            objects.add(element.read(p));
            end(p);
        }
        closes(p, JsonToken.END_ARRAY);
        return objects;
    }

    private static String text(JsonParser p) throws IOException {
        if (p.currentToken() != JsonToken.VALUE_STRING) {
            throw DIFFERS;
        }
        return p.getText();
    }

    private static VgpuGrant vgpu(JsonParser p) throws IOException {
        return new VgpuGrant((int) integer(p, CONTAINER, true), string(p, UUID), string(p, TYPE),
                integer(p, MEMORY_MIB, false), (int) integer(p, CORES, true));
    }

    private static PodClaim claim(JsonParser p) throws IOException {
        return new PodClaim(string(p, NAME), string(p, CLAIM_NAME), string(p, TEMPLATE_NAME));
    }

    private static void field(JsonParser p, SerializableString name) throws IOException {
        if (!p.nextFieldName(name)) {
            throw DIFFERS;
        }
    }

    private static String string(JsonParser p, SerializableString name) throws IOException {
        field(p, name);
        JsonToken token = p.nextToken();
        if (token == JsonToken.VALUE_STRING) {
            return p.getText();
        }
        if (token == JsonToken.VALUE_NULL) {
            return null;
        }
        throw DIFFERS;
    }

    private static Instant instant(JsonParser p, SerializableString name) throws IOException {
        String text = string(p, name);
        if (text == null) {
            return null;
        }
        Instant instant = IsoInstants.parseUtc(text);
        if (instant == null) {
            throw DIFFERS;
        }
        return instant;
    }

    private static WatchEventType type(String name) {
        if (name == null) {
            return null;
        }
        for (WatchEventType type : WatchEventType.values()) {
            if (type.name().equals(name)) {
                return type;
            }
        }
        throw DIFFERS;
    }

    private static long integer(JsonParser p, SerializableString name, boolean small) throws IOException {
        field(p, name);
        p.nextToken();
        return integer(p, small);
    }

    /** The current token as a whole number that fits an int ({@code small}) or a long, written as an integer. */
    private static long integer(JsonParser p, boolean small) throws IOException {
        if (p.currentToken() != JsonToken.VALUE_NUMBER_INT) {
            throw DIFFERS;
        }
        JsonParser.NumberType kind = p.getNumberType();
        if (kind != JsonParser.NumberType.INT && (small || kind != JsonParser.NumberType.LONG)) {
            throw DIFFERS;
        }
        return p.getLongValue();
    }

    private static void start(JsonParser p, JsonToken token) throws IOException {
        if (p.nextToken() != token) {
            throw DIFFERS;
        }
    }

    private static void end(JsonParser p) throws IOException {
        start(p, JsonToken.END_OBJECT);
    }

    private static void closes(JsonParser p, JsonToken token) {
        if (p.currentToken() != token) {
            throw DIFFERS;
        }
    }
}
