package io.gpumeter.common.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import io.gpumeter.common.fact.CarriedStatus;
import io.gpumeter.common.fact.ContainerStatusFact;
import io.gpumeter.common.fact.PodClaim;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.common.fact.VgpuGrant;
import io.quarkus.jackson.ObjectMapperCustomizer;
import jakarta.inject.Singleton;

import java.io.IOException;
import java.util.Map;

import static io.gpumeter.common.json.PodVersionFields.*;
import static io.gpumeter.common.json.PodVersionParts.amounts;
import static io.gpumeter.common.json.PodVersionParts.head;
import static io.gpumeter.common.json.PodVersionParts.instant;
import static io.gpumeter.common.json.PodVersionParts.instants;
import static io.gpumeter.common.json.PodVersionParts.owner;

/**
 * Pod versions, their governance views and what a view carried by its version keeps ({@link GovernanceViewJson}),
 * written field by field: the
 * bytes the mapper's own record serialisers write (every field in the record's order, nulls included). A bulk replay
 * writes each of these twice (the collector's bundle, the ledger's stored payload), and there the general serialiser,
 * calling every accessor reflectively under the services' C1 compiler, was a third of the collector's CPU.
 */
@Singleton
public class PodVersionJson implements ObjectMapperCustomizer {

    @Override
    public void customize(ObjectMapper mapper) {
        mapper.registerModule(module());
    }

    public static SimpleModule module() {
        SimpleModule module = new SimpleModule("gpumeter-pod-versions");
        module.addSerializer(PodFact.class, new PodWriter());
        module.addSerializer(PodStatusFact.class, new GovernanceViewJson.StatusWriter());
        module.addSerializer(ContainerStatusFact.class, GovernanceViewJson.CONTAINERS_WRITER);
        module.addSerializer(CarriedStatus.class, new GovernanceViewJson.CarriedWriter());
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
}
