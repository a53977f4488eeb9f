package io.gpumeter.common.fact;

/** One entry of a ResourceClaim's {@code status.reservedFor}: the object the claim is reserved for. */
public record ClaimConsumer(String resource, String name, String uid) {

    public boolean isPod() {
        return "pods".equals(resource);
    }
}
