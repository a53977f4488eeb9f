package io.gpumeter.common.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.SerializedString;

import java.io.IOException;

/**
 * The field names of pod versions, governance views and carried views as {@link PodVersionJson} writes them, encoded
 * once: a name given as a string is encoded character by character on every write, which was a tenth of the
 * collector's CPU under a bulk replay, and how such a field is written. The ledger's readers of that written form
 * match names against these.
 */
public final class PodVersionFields {

    public static final SerializableString ALL_TERMINATED = new SerializedString("allTerminated");
    public static final SerializableString API_VERSION = new SerializedString("apiVersion");
    public static final SerializableString CLAIMS = new SerializedString("claims");
    public static final SerializableString CLAIM_NAME = new SerializedString("claimName");
    public static final SerializableString CONTAINER = new SerializedString("container");
    public static final SerializableString CONTAINERS = new SerializedString("containers");
    public static final SerializableString CORES = new SerializedString("cores");
    public static final SerializableString CREATED_AT = new SerializedString("createdAt");
    public static final SerializableString DELETED_AT = new SerializedString("deletedAt");
    public static final SerializableString DELETION_TIMESTAMP = new SerializedString("deletionTimestamp");
    public static final SerializableString EFFECT = new SerializedString("effect");
    public static final SerializableString EXIT_CODE = new SerializedString("exitCode");
    public static final SerializableString FINISHED_AT = new SerializedString("finishedAt");
    public static final SerializableString GPU_RESOURCES = new SerializedString("gpuResources");
    public static final SerializableString GROUP_NAME = new SerializedString("groupName");
    public static final SerializableString HAMI_BIND_PHASE = new SerializedString("hamiBindPhase");
    public static final SerializableString HAMI_NODE = new SerializedString("hamiNode");
    public static final SerializableString INIT = new SerializedString("init");
    public static final SerializableString KEY = new SerializedString("key");
    public static final SerializableString KIND = new SerializedString("kind");
    public static final SerializableString LABELS = new SerializedString("labels");
    public static final SerializableString LAST_FINISHED_AT = new SerializedString("lastFinishedAt");
    public static final SerializableString LAST_STATE = new SerializedString("lastState");
    public static final SerializableString MATCH_EXPRESSIONS = new SerializedString("matchExpressions");
    public static final SerializableString MATCH_FIELDS = new SerializedString("matchFields");
    public static final SerializableString MEMORY_MIB = new SerializedString("memoryMib");
    public static final SerializableString MESSAGE = new SerializedString("message");
    public static final SerializableString NAME = new SerializedString("name");
    public static final SerializableString NAMESPACE = new SerializedString("namespace");
    public static final SerializableString NODE_AFFINITY = new SerializedString("nodeAffinity");
    public static final SerializableString NODE_NAME = new SerializedString("nodeName");
    public static final SerializableString NODE_SELECTOR = new SerializedString("nodeSelector");
    public static final SerializableString OBSERVED_AT = new SerializedString("observedAt");
    public static final SerializableString OPERATOR = new SerializedString("operator");
    public static final SerializableString OWNER = new SerializedString("owner");
    public static final SerializableString PHASE = new SerializedString("phase");
    public static final SerializableString PLACEMENT = new SerializedString("placement");
    public static final SerializableString QUEUE_NAME = new SerializedString("queueName");
    public static final SerializableString READY_CHANGED_AT = new SerializedString("readyChangedAt");
    public static final SerializableString REASON = new SerializedString("reason");
    public static final SerializableString RESOURCE_VERSION = new SerializedString("resourceVersion");
    public static final SerializableString RESTART_COUNT = new SerializedString("restartCount");
    public static final SerializableString SCHEDULED_AT = new SerializedString("scheduledAt");
    public static final SerializableString SCHEDULER_NAME = new SerializedString("schedulerName");
    public static final SerializableString SCHEDULING = new SerializedString("scheduling");
    public static final SerializableString SINCE = new SerializedString("since");
    public static final SerializableString STARTED_AT = new SerializedString("startedAt");
    public static final SerializableString STATE = new SerializedString("state");
    public static final SerializableString TEMPLATE_NAME = new SerializedString("templateName");
    public static final SerializableString TOLERATIONS = new SerializedString("tolerations");
    public static final SerializableString TYPE = new SerializedString("type");
    public static final SerializableString UID = new SerializedString("uid");
    public static final SerializableString UUID = new SerializedString("uuid");
    public static final SerializableString VALUE = new SerializedString("value");
    public static final SerializableString VALUES = new SerializedString("values");
    public static final SerializableString VGPUS = new SerializedString("vgpus");

    private PodVersionFields() {
    }

    /** A field of text, null as null. */
    static void string(JsonGenerator gen, SerializableString field, String value) throws IOException {
        gen.writeFieldName(field);
        gen.writeString(value);
    }

    static void number(JsonGenerator gen, SerializableString field, long value) throws IOException {
        gen.writeFieldName(field);
        gen.writeNumber(value);
    }

    static void bool(JsonGenerator gen, SerializableString field, boolean value) throws IOException {
        gen.writeFieldName(field);
        gen.writeBoolean(value);
    }

    static void nullField(JsonGenerator gen, SerializableString field) throws IOException {
        gen.writeFieldName(field);
        gen.writeNull();
    }

    static void startArray(JsonGenerator gen, SerializableString field) throws IOException {
        gen.writeFieldName(field);
        gen.writeStartArray();
    }

    static void startObject(JsonGenerator gen, SerializableString field) throws IOException {
        gen.writeFieldName(field);
        gen.writeStartObject();
    }
}
