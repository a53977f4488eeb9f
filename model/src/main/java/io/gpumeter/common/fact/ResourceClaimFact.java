package io.gpumeter.common.fact;

import java.time.Instant;
import java.util.List;

/**
 * One observed version of a ResourceClaim (resource.k8s.io/v1). Natural key: cluster, uid, resourceVersion, type.
 *
 * @param allocated   whether {@code status.allocation} is set
 * @param results     the allocated devices, empty while unallocated
 * @param reservedFor the consumers the claim is reserved for
 */
public record ResourceClaimFact(String uid, String namespace, String name, String resourceVersion,
                                WatchEventType type, Instant observedAt, Instant deletionTimestamp,
                                List<ClaimRequest> requests, boolean allocated, List<ClaimResult> results,
                                List<ClaimConsumer> reservedFor) {

    public ResourceClaimFact {
        requests = requests == null ? List.of() : List.copyOf(requests);
        results = results == null ? List.of() : List.copyOf(results);
        reservedFor = reservedFor == null ? List.of() : List.copyOf(reservedFor);
    }
}
