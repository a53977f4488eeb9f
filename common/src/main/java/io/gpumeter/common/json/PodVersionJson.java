package io.gpumeter.common.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import io.gpumeter.common.fact.CarriedStatus;
import io.gpumeter.common.fact.ContainerState;
import io.gpumeter.common.fact.ContainerStatusFact;
import io.gpumeter.common.fact.LabelRequirement;
import io.gpumeter.common.fact.NodeSelectorTerm;
import io.gpumeter.common.fact.NotScheduled;
import io.gpumeter.common.fact.Owner;
import io.gpumeter.common.fact.PodClaim;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.common.fact.PodPlacement;
import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.common.fact.PodToleration;
import io.gpumeter.common.fact.VgpuGrant;
import io.gpumeter.common.fact.WatchEventType;
import io.quarkus.jackson.ObjectMapperCustomizer;
import jakarta.inject.Singleton;

import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static io.gpumeter.common.json.PodVersionFields.*;

/**
 * Pod versions, their governance views and what a view carried by its version keeps, written field by field: the
 * bytes the mapper's own record serialisers write (every field in the record's order, nulls included). A bulk replay
 * writes each of these twice (the collector's bundle, the ledger's stored payload), and there the general serialiser,
 * calling every accessor reflectively under the services' C1 compiler, was a third of the collector's CPU.
 */
@Singleton
public class PodVersionJson implements ObjectMapperCustomizer {

    private static final ContainerWriter CONTAINER_WRITER = new ContainerWriter();

    @Override
    public void customize(ObjectMapper mapper) {
        mapper.registerModule(module());
    }

    public static SimpleModule module() {
        SimpleModule module = new SimpleModule("gpumeter-pod-versions");
        module.addSerializer(PodFact.class, new PodWriter());
        module.addSerializer(PodStatusFact.class, new StatusWriter());
        module.addSerializer(ContainerStatusFact.class, CONTAINER_WRITER);
        module.addSerializer(CarriedStatus.class, new CarriedWriter());
        return module;
    }

    static final class PodWriter extends StdSerializer<PodFact> {
        PodWriter() {
            super(PodFact.class);
        }

        @Override
        public void serialize(PodFact pod, JsonGenerator gen, SerializerProvider provider) throws IOException {
            JsonSerializer<Object> instants = instants(provider);
            gen.writeStartObject(pod);
            head(gen, provider, instants, pod.uid(), pod.namespace(), pod.name(), pod.resourceVersion(), pod.type(),
                    pod.observedAt(), pod.createdAt(), pod.scheduledAt());
            string(gen, NODE_NAME, pod.nodeName());
            string(gen, PHASE, pod.phase());
            string(gen, SCHEDULER_NAME, pod.schedulerName());
            bool(gen, ALL_TERMINATED, pod.allTerminated());
            instant(gen, provider, instants, LAST_FINISHED_AT, pod.lastFinishedAt());
            instant(gen, provider, instants, DELETION_TIMESTAMP, pod.deletionTimestamp());
            owner(gen, pod.owner());
            startObject(gen, LABELS);
            for (Map.Entry<String, String> label : pod.labels().entrySet()) {
                gen.writeStringField(label.getKey(), label.getValue());
            }
            gen.writeEndObject();
            amounts(gen, pod.gpuResources());
            startArray(gen, VGPUS);
            for (VgpuGrant vgpu : pod.vgpus()) {
                gen.writeStartObject();
                number(gen, CONTAINER, vgpu.container());
                string(gen, UUID, vgpu.uuid());
                string(gen, TYPE, vgpu.type());
                number(gen, MEMORY_MIB, vgpu.memoryMib());
                number(gen, CORES, vgpu.cores());
                gen.writeEndObject();
            }
            gen.writeEndArray();
            startArray(gen, CLAIMS);
            for (PodClaim claim : pod.claims()) {
                gen.writeStartObject();
                string(gen, NAME, claim.name());
                string(gen, CLAIM_NAME, claim.claimName());
                string(gen, TEMPLATE_NAME, claim.templateName());
                gen.writeEndObject();
            }
            gen.writeEndArray();
            string(gen, HAMI_BIND_PHASE, pod.hamiBindPhase());
            string(gen, HAMI_NODE, pod.hamiNode());
            gen.writeEndObject();
        }
    }

    static final class StatusWriter extends StdSerializer<PodStatusFact> {
        StatusWriter() {
            super(PodStatusFact.class);
        }

        @Override
        public void serialize(PodStatusFact pod, JsonGenerator gen, SerializerProvider provider) throws IOException {
            JsonSerializer<Object> instants = instants(provider);
            gen.writeStartObject(pod);
            head(gen, provider, instants, pod.uid(), pod.namespace(), pod.name(), pod.resourceVersion(), pod.type(),
                    pod.observedAt(), pod.createdAt(), pod.scheduledAt());
            instant(gen, provider, instants, DELETED_AT, pod.deletedAt());
            string(gen, NODE_NAME, pod.nodeName());
            string(gen, SCHEDULER_NAME, pod.schedulerName());
            string(gen, PHASE, pod.phase());
            string(gen, REASON, pod.reason());
            string(gen, MESSAGE, pod.message());
            owner(gen, pod.owner());
            string(gen, GROUP_NAME, pod.groupName());
            string(gen, QUEUE_NAME, pod.queueName());
            amounts(gen, pod.gpuResources());
            instant(gen, provider, instants, READY_CHANGED_AT, pod.readyChangedAt());
            containers(gen, provider, instants, pod.containers());
            scheduling(gen, provider, instants, pod.scheduling());
            placement(gen, pod.placement());
            gen.writeEndObject();
        }
    }

    /** What a governance view says beyond its pod version: kept beside the version, or sent in a bundle instead. */
    static final class CarriedWriter extends StdSerializer<CarriedStatus> {
        CarriedWriter() {
            super(CarriedStatus.class);
        }

        @Override
        public void serialize(CarriedStatus status, JsonGenerator gen, SerializerProvider provider) throws IOException {
            JsonSerializer<Object> instants = instants(provider);
            gen.writeStartObject(status);
            string(gen, REASON, status.reason());
            string(gen, MESSAGE, status.message());
            string(gen, GROUP_NAME, status.groupName());
            string(gen, QUEUE_NAME, status.queueName());
            instant(gen, provider, instants, DELETED_AT, status.deletedAt());
            instant(gen, provider, instants, READY_CHANGED_AT, status.readyChangedAt());
            containers(gen, provider, instants, status.containers());
            scheduling(gen, provider, instants, status.scheduling());
            placement(gen, status.placement());
            gen.writeEndObject();
        }
    }

    /** A container of a governance view, also kept beside a pod version that carries the view (in the ledger). */
    static final class ContainerWriter extends StdSerializer<ContainerStatusFact> {
        ContainerWriter() {
            super(ContainerStatusFact.class);
        }

        @Override
        public void serialize(ContainerStatusFact container, JsonGenerator gen, SerializerProvider provider)
                throws IOException {
            write(container, gen, provider, instants(provider));
        }

        void write(ContainerStatusFact container, JsonGenerator gen, SerializerProvider provider,
                   JsonSerializer<Object> instants) throws IOException {
            gen.writeStartObject(container);
            string(gen, NAME, container.name());
            bool(gen, INIT, container.init());
            number(gen, RESTART_COUNT, container.restartCount());
            state(gen, provider, instants, STATE, container.state());
            state(gen, provider, instants, LAST_STATE, container.lastState());
            gen.writeEndObject();
        }
    }

    private static void containers(JsonGenerator gen, SerializerProvider provider, JsonSerializer<Object> instants,
                                   List<ContainerStatusFact> containers) throws IOException {
        startArray(gen, CONTAINERS);
        for (ContainerStatusFact container : containers) {
            CONTAINER_WRITER.write(container, gen, provider, instants);
        }
        gen.writeEndArray();
    }

    private static void scheduling(JsonGenerator gen, SerializerProvider provider, JsonSerializer<Object> instants,
                                   NotScheduled scheduling) throws IOException {
        if (scheduling == null) {
            nullField(gen, SCHEDULING);
            return;
        }
        startObject(gen, SCHEDULING);
        string(gen, REASON, scheduling.reason());
        string(gen, MESSAGE, scheduling.message());
        instant(gen, provider, instants, SINCE, scheduling.since());
        gen.writeEndObject();
    }

    private static void placement(JsonGenerator gen, PodPlacement placement) throws IOException {
        if (placement == null) {
            nullField(gen, PLACEMENT);
            return;
        }
        startObject(gen, PLACEMENT);
        startObject(gen, NODE_SELECTOR);
        for (Map.Entry<String, String> label : placement.nodeSelector().entrySet()) {
            gen.writeStringField(label.getKey(), label.getValue());
        }
        gen.writeEndObject();
        startArray(gen, NODE_AFFINITY);
        for (NodeSelectorTerm term : placement.nodeAffinity()) {
            gen.writeStartObject();
            requirements(gen, MATCH_EXPRESSIONS, term.matchExpressions());
            requirements(gen, MATCH_FIELDS, term.matchFields());
            gen.writeEndObject();
        }
        gen.writeEndArray();
        startArray(gen, TOLERATIONS);
        for (PodToleration toleration : placement.tolerations()) {
            gen.writeStartObject();
            string(gen, KEY, toleration.key());
            string(gen, OPERATOR, toleration.operator());
            string(gen, VALUE, toleration.value());
            string(gen, EFFECT, toleration.effect());
            gen.writeEndObject();
        }
        gen.writeEndArray();
        gen.writeEndObject();
    }

    private static void requirements(JsonGenerator gen, SerializableString field, List<LabelRequirement> requirements)
            throws IOException {
        startArray(gen, field);
        for (LabelRequirement requirement : requirements) {
            gen.writeStartObject();
            string(gen, KEY, requirement.key());
            string(gen, OPERATOR, requirement.operator());
            startArray(gen, VALUES);
            for (String value : requirement.values()) {
                gen.writeString(value);
            }
            gen.writeEndArray();
            gen.writeEndObject();
        }
        gen.writeEndArray();
    }

    private static void state(JsonGenerator gen, SerializerProvider provider, JsonSerializer<Object> instants,
                              SerializableString field, ContainerState state) throws IOException {
        gen.writeFieldName(field);
        if (state == null) {
            gen.writeNull();
            return;
        }
        gen.writeStartObject();
        string(gen, STATE, state.state());
        string(gen, REASON, state.reason());
        string(gen, MESSAGE, state.message());
        if (state.exitCode() == null) {
            nullField(gen, EXIT_CODE);
        } else {
            number(gen, EXIT_CODE, state.exitCode().intValue());
        }
        instant(gen, provider, instants, STARTED_AT, state.startedAt());
        instant(gen, provider, instants, FINISHED_AT, state.finishedAt());
        gen.writeEndObject();
    }

    private static void owner(JsonGenerator gen, Owner owner) throws IOException {
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

    private static void amounts(JsonGenerator gen, Map<String, Long> amounts) throws IOException {
        startObject(gen, GPU_RESOURCES);
        for (Map.Entry<String, Long> amount : amounts.entrySet()) {
            gen.writeNumberField(amount.getKey(), amount.getValue().longValue());
        }
        gen.writeEndObject();
    }

    /** The fields a pod version and its governance view begin with, in the order of both records. */
    private static void head(JsonGenerator gen, SerializerProvider provider, JsonSerializer<Object> instants, String uid,
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
    private static JsonSerializer<Object> instants(SerializerProvider provider) throws IOException {
        return provider.findValueSerializer(Instant.class);
    }

    private static void instant(JsonGenerator gen, SerializerProvider provider, JsonSerializer<Object> instants,
                                SerializableString field, Instant value) throws IOException {
        gen.writeFieldName(field);
        if (value == null) {
            gen.writeNull();
        } else {
            instants.serialize(value, gen, provider); // as the mapper writes one
        }
    }
}
