package io.gpumeter.common.fact;

/**
 * One request of a ResourceClaim's {@code spec.devices.requests[]} (its {@code exactly} form).
 *
 * @param count       devices asked for with allocationMode ExactCount; null for allocationMode All
 * @param adminAccess monitoring access, which allocates nothing
 */
public record ClaimRequest(String name, String deviceClassName, Long count, boolean adminAccess) {
}
