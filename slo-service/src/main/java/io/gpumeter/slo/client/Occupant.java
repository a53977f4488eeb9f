package io.gpumeter.slo.client;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.math.BigDecimal;
import java.time.Instant;

/** The ledger's Q1 row: who held which unit of a GPU at an instant, and since when. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record Occupant(String cluster, String node, String gpuUuid, String namespace, String pod, String podUid,
                       Owner owner, String tenant, String team, String project, Unit unit, BigDecimal fraction,
                       Instant since, Instant until) {

    /** The pod's controller (a Deployment for a ReplicaSet's pod). */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Owner(String kind, String name) {
    }

    /** The share of the card: WHOLE, MIG (profile, instance id), VGPU (HAMi's grant of cores and memory) or SHARED. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Unit(String kind, String migProfile, String migInstance, Integer cores, Long memoryMiB) {
    }

    /** namespace/pod, the key a pod is known by across services. */
    public String podKey() {
        return namespace + "/" + pod;
    }

    public String ownerKind() {
        return owner == null ? null : owner.kind();
    }

    /** Whether this holding still applied at {@code t}. */
    public boolean heldAt(Instant t) {
        return (since == null || !since.isAfter(t)) && (until == null || until.isAfter(t));
    }
}
