package io.gpumeter.common.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import io.gpumeter.common.fact.CarriedStatus;
import io.gpumeter.common.fact.ContainerState;
import io.gpumeter.common.fact.ContainerStatusFact;
import io.gpumeter.common.fact.LabelRequirement;
import io.gpumeter.common.fact.NodeSelectorTerm;
import io.gpumeter.common.fact.NotScheduled;
import io.gpumeter.common.fact.PodPlacement;
import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.common.fact.PodToleration;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import static io.gpumeter.common.json.PodVersionFields.*;
import static io.gpumeter.common.json.PodVersionParts.amounts;
import static io.gpumeter.common.json.PodVersionParts.head;
import static io.gpumeter.common.json.PodVersionParts.instant;
import static io.gpumeter.common.json.PodVersionParts.instants;
import static io.gpumeter.common.json.PodVersionParts.owner;

/**
 * A pod's governance view and what a view carried by its pod version keeps, written field by field for
 * {@link PodVersionJson}: its containers and their states, why it is not scheduled, and where it may be placed.
 */
final class GovernanceViewJson {

    static final ContainerWriter CONTAINERS_WRITER = new ContainerWriter();

    private GovernanceViewJson() {
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
            CONTAINERS_WRITER.write(container, gen, provider, instants);
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
}
