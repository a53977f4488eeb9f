package io.gpumeter.ledger.occupancy.domain;

import io.gpumeter.ledger.allocation.domain.UnitKind;

import java.math.BigDecimal;
import java.time.Instant;

/** Q1's answer row: who held which unit of a GPU at an instant, and since when. */
public record Occupant(String cluster, String node, String gpuUuid, String namespace, String pod, String podUid,
                       Owner owner, String tenant, String team, String project, Unit unit, BigDecimal fraction,
                       Instant since, Instant until) {

    /** The pod's controller; a ReplicaSet of a Deployment is reported as the Deployment. */
    public record Owner(String kind, String name) {
    }

    /**
     * The share of the card: whole, a MIG instance (profile, and its GPU instance id once an exporter named it), a
     * vGPU (cores %, memory) or a time-slice replica.
     */
    public record Unit(UnitKind kind, String migProfile, String migInstance, Integer cores, Long memoryMiB, String source) {
    }
}
