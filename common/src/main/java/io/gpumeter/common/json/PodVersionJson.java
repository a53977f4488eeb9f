package io.gpumeter.common.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import io.gpumeter.common.fact.CarriedStatus;
import io.gpumeter.common.fact.ContainerState;
import io.gpumeter.common.fact.ContainerStatusFact;
import io.gpumeter.common.fact.Owner;
import io.gpumeter.common.fact.PodClaim;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.common.fact.VgpuGrant;
import io.gpumeter.common.fact.WatchEventType;
import io.quarkus.jackson.ObjectMapperCustomizer;
import jakarta.inject.Singleton;

import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Pod versions, their governance views and what a view carried by its version keeps, written field by field: the
 * bytes the mapper's own record serialisers write (every field in the record's order, nulls included). A bulk replay
 * writes each of these twice (the collector's bundle, the ledger's stored payload), and there the general serialiser,
 * calling every accessor reflectively under the services' C1 compiler, was a third of the collector's CPU.
 */
@Singleton
public class PodVersionJson implements ObjectMapperCustomizer {

    private static final ContainerWriter CONTAINER = new ContainerWriter();

    @Override
    public void customize(ObjectMapper mapper) {
        mapper.registerModule(module());
    }

    public static SimpleModule module() {
        SimpleModule module = new SimpleModule("gpumeter-pod-versions");
        module.addSerializer(PodFact.class, new PodWriter());
        module.addSerializer(PodStatusFact.class, new StatusWriter());
        module.addSerializer(ContainerStatusFact.class, CONTAINER);
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
            gen.writeStringField("nodeName", pod.nodeName());
            gen.writeStringField("phase", pod.phase());
            gen.writeStringField("schedulerName", pod.schedulerName());
            gen.writeBooleanField("allTerminated", pod.allTerminated());
            instant(gen, provider, instants, "lastFinishedAt", pod.lastFinishedAt());
            instant(gen, provider, instants, "deletionTimestamp", pod.deletionTimestamp());
            owner(gen, pod.owner());
            gen.writeFieldName("labels");
            gen.writeStartObject();
            for (Map.Entry<String, String> label : pod.labels().entrySet()) {
                gen.writeStringField(label.getKey(), label.getValue());
            }
            gen.writeEndObject();
            amounts(gen, pod.gpuResources());
            gen.writeArrayFieldStart("vgpus");
            for (VgpuGrant vgpu : pod.vgpus()) {
                gen.writeStartObject();
                gen.writeNumberField("container", vgpu.container());
                gen.writeStringField("uuid", vgpu.uuid());
                gen.writeStringField("type", vgpu.type());
                gen.writeNumberField("memoryMib", vgpu.memoryMib());
                gen.writeNumberField("cores", vgpu.cores());
                gen.writeEndObject();
            }
            gen.writeEndArray();
            gen.writeArrayFieldStart("claims");
            for (PodClaim claim : pod.claims()) {
                gen.writeStartObject();
                gen.writeStringField("name", claim.name());
                gen.writeStringField("claimName", claim.claimName());
                gen.writeStringField("templateName", claim.templateName());
                gen.writeEndObject();
            }
            gen.writeEndArray();
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
            instant(gen, provider, instants, "deletedAt", pod.deletedAt());
            gen.writeStringField("nodeName", pod.nodeName());
            gen.writeStringField("schedulerName", pod.schedulerName());
            gen.writeStringField("phase", pod.phase());
            gen.writeStringField("reason", pod.reason());
            gen.writeStringField("message", pod.message());
            owner(gen, pod.owner());
            gen.writeStringField("groupName", pod.groupName());
            gen.writeStringField("queueName", pod.queueName());
            amounts(gen, pod.gpuResources());
            instant(gen, provider, instants, "readyChangedAt", pod.readyChangedAt());
            containers(gen, provider, instants, pod.containers());
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
            gen.writeStringField("reason", status.reason());
            gen.writeStringField("message", status.message());
            gen.writeStringField("groupName", status.groupName());
            gen.writeStringField("queueName", status.queueName());
            instant(gen, provider, instants, "deletedAt", status.deletedAt());
            instant(gen, provider, instants, "readyChangedAt", status.readyChangedAt());
            containers(gen, provider, instants, status.containers());
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
            gen.writeStringField("name", container.name());
            gen.writeBooleanField("init", container.init());
            gen.writeNumberField("restartCount", container.restartCount());
            state(gen, provider, instants, "state", container.state());
            state(gen, provider, instants, "lastState", container.lastState());
            gen.writeEndObject();
        }
    }

    private static void containers(JsonGenerator gen, SerializerProvider provider, JsonSerializer<Object> instants,
                                   List<ContainerStatusFact> containers) throws IOException {
        gen.writeArrayFieldStart("containers");
        for (ContainerStatusFact container : containers) {
            CONTAINER.write(container, gen, provider, instants);
        }
        gen.writeEndArray();
    }

    private static void state(JsonGenerator gen, SerializerProvider provider, JsonSerializer<Object> instants,
                              String field, ContainerState state) throws IOException {
        if (state == null) {
            gen.writeNullField(field);
            return;
        }
        gen.writeObjectFieldStart(field);
        gen.writeStringField("state", state.state());
        gen.writeStringField("reason", state.reason());
        gen.writeStringField("message", state.message());
        if (state.exitCode() == null) {
            gen.writeNullField("exitCode");
        } else {
            gen.writeNumberField("exitCode", state.exitCode().intValue());
        }
        instant(gen, provider, instants, "startedAt", state.startedAt());
        instant(gen, provider, instants, "finishedAt", state.finishedAt());
        gen.writeEndObject();
    }

    private static void owner(JsonGenerator gen, Owner owner) throws IOException {
        if (owner == null) {
            gen.writeNullField("owner");
            return;
        }
        gen.writeObjectFieldStart("owner");
        gen.writeStringField("kind", owner.kind());
        gen.writeStringField("name", owner.name());
        gen.writeEndObject();
    }

    private static void amounts(JsonGenerator gen, Map<String, Long> amounts) throws IOException {
        gen.writeObjectFieldStart("gpuResources");
        for (Map.Entry<String, Long> amount : amounts.entrySet()) {
            gen.writeNumberField(amount.getKey(), amount.getValue().longValue());
        }
        gen.writeEndObject();
    }

    /** The fields a pod version and its governance view begin with, in the order of both records. */
    private static void head(JsonGenerator gen, SerializerProvider provider, JsonSerializer<Object> instants, String uid,
                             String namespace, String name, String resourceVersion, WatchEventType type,
                             Instant observedAt, Instant createdAt, Instant scheduledAt) throws IOException {
        gen.writeStringField("uid", uid);
        gen.writeStringField("namespace", namespace);
        gen.writeStringField("name", name);
        gen.writeStringField("resourceVersion", resourceVersion);
        gen.writeStringField("type", type == null ? null : type.name());
        instant(gen, provider, instants, "observedAt", observedAt);
        instant(gen, provider, instants, "createdAt", createdAt);
        instant(gen, provider, instants, "scheduledAt", scheduledAt);
    }

    /** The mapper's serialiser of instants, looked up once a pod: a lookup per field was a sixth of the writing. */
    private static JsonSerializer<Object> instants(SerializerProvider provider) throws IOException {
        return provider.findValueSerializer(Instant.class);
    }

    private static void instant(JsonGenerator gen, SerializerProvider provider, JsonSerializer<Object> instants,
                                String field, Instant value) throws IOException {
        gen.writeFieldName(field);
        if (value == null) {
            gen.writeNull();
        } else {
            instants.serialize(value, gen, provider); // as the mapper writes one
        }
    }
}
