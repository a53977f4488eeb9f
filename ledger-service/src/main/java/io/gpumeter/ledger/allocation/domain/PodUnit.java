package io.gpumeter.ledger.allocation.domain;

/** A unit a pod holds and who else holds it: only a shared ResourceClaim's devices have co-holders. */
public record PodUnit(AllocationUnit unit, Sharing sharing) {

    public static PodUnit alone(AllocationUnit unit) {
        return new PodUnit(unit, Sharing.ALONE);
    }
}
