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
        Map<String, String> labels = labels(p);
        Map<String, Long> gpuResources = amounts(p);
        List<VgpuGrant> vgpus = vgpus(p);
        List<PodClaim> claims = claims(p);
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

    private static Map<String, String> labels(JsonParser p) throws IOException {
        field(p, LABELS);
        start(p, JsonToken.START_OBJECT);
        Map<String, String> labels = new HashMap<>();
        for (String key = p.nextFieldName(); key != null; key = p.nextFieldName()) {
            if (p.nextToken() != JsonToken.VALUE_STRING || labels.put(key, p.getText()) != null) {
                throw DIFFERS;
            }
        }
        closes(p, JsonToken.END_OBJECT);
        return labels;
    }

    private static Map<String, Long> amounts(JsonParser p) throws IOException {
        field(p, GPU_RESOURCES);
        start(p, JsonToken.START_OBJECT);
        Map<String, Long> amounts = new HashMap<>();
        for (String key = p.nextFieldName(); key != null; key = p.nextFieldName()) {
            p.nextToken();
            if (amounts.put(key, integer(p, false)) != null) {
                throw DIFFERS;
            }
        }
        closes(p, JsonToken.END_OBJECT);
        return amounts;
    }

    private static List<VgpuGrant> vgpus(JsonParser p) throws IOException {
        field(p, VGPUS);
        start(p, JsonToken.START_ARRAY);
        List<VgpuGrant> vgpus = new ArrayList<>(1);
        while (p.nextToken() == JsonToken.START_OBJECT) {
            field(p, CONTAINER);
            p.nextToken();
            int container = (int) integer(p, true);
            String uuid = string(p, UUID);
            String type = string(p, TYPE);
            field(p, MEMORY_MIB);
            p.nextToken();
            long memoryMib = integer(p, false);
            field(p, CORES);
            p.nextToken();
            int cores = (int) integer(p, true);
            end(p);
            vgpus.add(new VgpuGrant(container, uuid, type, memoryMib, cores));
        }
        closes(p, JsonToken.END_ARRAY);
        return vgpus;
    }

    private static List<PodClaim> claims(JsonParser p) throws IOException {
        field(p, CLAIMS);
        start(p, JsonToken.START_ARRAY);
        List<PodClaim> claims = new ArrayList<>(1);
        while (p.nextToken() == JsonToken.START_OBJECT) {
            claims.add(new PodClaim(string(p, NAME), string(p, CLAIM_NAME), string(p, TEMPLATE_NAME)));
            end(p);
        }
        closes(p, JsonToken.END_ARRAY);
        return claims;
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
