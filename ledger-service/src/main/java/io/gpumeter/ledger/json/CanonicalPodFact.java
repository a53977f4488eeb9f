package io.gpumeter.ledger.json;

import com.fasterxml.jackson.core.JsonParser;
import io.gpumeter.common.fact.Owner;
import io.gpumeter.common.fact.PodClaim;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.common.fact.VgpuGrant;
import io.gpumeter.common.fact.WatchEventType;

import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static io.gpumeter.common.json.PodVersionFields.*;
import static io.gpumeter.ledger.json.WrittenForm.DIFFERS;
import static io.gpumeter.ledger.json.WrittenForm.bool;
import static io.gpumeter.ledger.json.WrittenForm.end;
import static io.gpumeter.ledger.json.WrittenForm.entries;
import static io.gpumeter.ledger.json.WrittenForm.instant;
import static io.gpumeter.ledger.json.WrittenForm.integer;
import static io.gpumeter.ledger.json.WrittenForm.objectOrNull;
import static io.gpumeter.ledger.json.WrittenForm.objects;
import static io.gpumeter.ledger.json.WrittenForm.string;

/**
 * Reads a pod version only in the form the services write one (PodVersionJson): every field present, in the
 * record's order, no other; instants in the UTC form; integers as integers; booleans as booleans; no key twice
 * in labels or GPU resources. Anything else answers null, and the caller reads the object with the mapper's general
 * deserializer, which decides what is accepted and how. What this reader accepts, the general one reads to an equal
 * fact, and the bytes read are what the ledger would store for it but for string escapes, whitespace and the order
 * of map keys, none of which changes what the ledger's decoder or PostgreSQL's json operators read from them.
 */
final class CanonicalPodFact {

    private CanonicalPodFact() {
    }

    /**
     * The pod version whose object starts at the parser's current token ({@code START_OBJECT}), the parser left on
     * its {@code END_OBJECT}; or null at the first token that differs from the written form, the parser left there.
     */
    static PodFact read(JsonParser p, Repeats repeats) throws IOException {
        return WrittenForm.whole(p, q -> pod(q, repeats));
    }

    private static PodFact pod(JsonParser p, Repeats r) throws IOException {
        String uid = r.string(p, UID);
        String namespace = r.string(p, NAMESPACE);
        String name = r.string(p, NAME);
        String resourceVersion = string(p, RESOURCE_VERSION); // one version's own
        WatchEventType type = type(string(p, TYPE));
        Instant observedAt = instant(p, OBSERVED_AT, r);
        Instant createdAt = instant(p, CREATED_AT, r);
        Instant scheduledAt = instant(p, SCHEDULED_AT, r);
        String nodeName = r.string(p, NODE_NAME);
        String phase = r.string(p, PHASE);
        String schedulerName = r.string(p, SCHEDULER_NAME);
        boolean allTerminated = bool(p, ALL_TERMINATED);
        Instant lastFinishedAt = instant(p, LAST_FINISHED_AT, r);
        Instant deletionTimestamp = instant(p, DELETION_TIMESTAMP, r);
        Owner owner = owner(p, r);
        Map<String, String> labels = entries(p, LABELS, r::text);
        Map<String, Long> gpuResources = entries(p, GPU_RESOURCES, q -> integer(q, false));
        List<VgpuGrant> vgpus = objects(p, VGPUS, q -> vgpu(q, r));
        List<PodClaim> claims = objects(p, CLAIMS, q -> claim(q, r));
        String hamiBindPhase = r.string(p, HAMI_BIND_PHASE);
        String hamiNode = r.string(p, HAMI_NODE);
        return new PodFact(uid, namespace, name, resourceVersion, type, observedAt, createdAt, scheduledAt, nodeName,
                phase, schedulerName, allTerminated, lastFinishedAt, deletionTimestamp, owner, labels, gpuResources,
                vgpus, claims, hamiBindPhase, hamiNode);
    }

    private static Owner owner(JsonParser p, Repeats r) throws IOException {
        if (!objectOrNull(p, OWNER)) {
            return null;
        }
        Owner owner = new Owner(r.string(p, KIND), r.string(p, NAME), r.string(p, API_VERSION));
        end(p);
        return owner;
    }

    private static VgpuGrant vgpu(JsonParser p, Repeats r) throws IOException {
        return new VgpuGrant((int) integer(p, CONTAINER, true), r.string(p, UUID), r.string(p, TYPE),
                integer(p, MEMORY_MIB, false), (int) integer(p, CORES, true));
    }

    private static PodClaim claim(JsonParser p, Repeats r) throws IOException {
        return new PodClaim(r.string(p, NAME), r.string(p, CLAIM_NAME), r.string(p, TEMPLATE_NAME));
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
}
