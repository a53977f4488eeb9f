package io.gpumeter.common.json;

import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.SerializedString;

/**
 * The field names {@link PodVersionJson} writes, encoded once: a name given as a string is encoded character by
 * character on every write, which was a tenth of the collector's CPU under a bulk replay.
 */
final class PodVersionFields {

    static final SerializableString ALL_TERMINATED = new SerializedString("allTerminated");
    static final SerializableString CLAIM_NAME = new SerializedString("claimName");
    static final SerializableString CLAIMS = new SerializedString("claims");
    static final SerializableString CONTAINER = new SerializedString("container");
    static final SerializableString CONTAINERS = new SerializedString("containers");
    static final SerializableString CORES = new SerializedString("cores");
    static final SerializableString CREATED_AT = new SerializedString("createdAt");
    static final SerializableString DELETED_AT = new SerializedString("deletedAt");
    static final SerializableString DELETION_TIMESTAMP = new SerializedString("deletionTimestamp");
    static final SerializableString EXIT_CODE = new SerializedString("exitCode");
    static final SerializableString FINISHED_AT = new SerializedString("finishedAt");
    static final SerializableString GPU_RESOURCES = new SerializedString("gpuResources");
    static final SerializableString GROUP_NAME = new SerializedString("groupName");
    static final SerializableString INIT = new SerializedString("init");
    static final SerializableString KIND = new SerializedString("kind");
    static final SerializableString LABELS = new SerializedString("labels");
    static final SerializableString LAST_FINISHED_AT = new SerializedString("lastFinishedAt");
    static final SerializableString LAST_STATE = new SerializedString("lastState");
    static final SerializableString MEMORY_MIB = new SerializedString("memoryMib");
    static final SerializableString MESSAGE = new SerializedString("message");
    static final SerializableString NAME = new SerializedString("name");
    static final SerializableString NAMESPACE = new SerializedString("namespace");
    static final SerializableString NODE_NAME = new SerializedString("nodeName");
    static final SerializableString OBSERVED_AT = new SerializedString("observedAt");
    static final SerializableString OWNER = new SerializedString("owner");
    static final SerializableString PHASE = new SerializedString("phase");
    static final SerializableString QUEUE_NAME = new SerializedString("queueName");
    static final SerializableString READY_CHANGED_AT = new SerializedString("readyChangedAt");
    static final SerializableString REASON = new SerializedString("reason");
    static final SerializableString RESOURCE_VERSION = new SerializedString("resourceVersion");
    static final SerializableString RESTART_COUNT = new SerializedString("restartCount");
    static final SerializableString SCHEDULED_AT = new SerializedString("scheduledAt");
    static final SerializableString SCHEDULER_NAME = new SerializedString("schedulerName");
    static final SerializableString STARTED_AT = new SerializedString("startedAt");
    static final SerializableString STATE = new SerializedString("state");
    static final SerializableString TEMPLATE_NAME = new SerializedString("templateName");
    static final SerializableString TYPE = new SerializedString("type");
    static final SerializableString UID = new SerializedString("uid");
    static final SerializableString UUID = new SerializedString("uuid");
    static final SerializableString VGPUS = new SerializedString("vgpus");

    private PodVersionFields() {
    }
}
