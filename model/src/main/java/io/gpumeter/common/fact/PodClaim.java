package io.gpumeter.common.fact;

/**
 * One entry of a pod's {@code spec.resourceClaims}: the name the pod uses for it and the ResourceClaim it resolves
 * to — {@code resourceClaimName} directly, or the claim generated from a template as
 * {@code status.resourceClaimStatuses} names it (null until the generated claim exists).
 */
public record PodClaim(String name, String claimName, String templateName) {
}
