package io.gpumeter.common.fact;

/** One device of a ResourceClaim's {@code status.allocation.devices.results[]}. */
public record ClaimResult(String request, String driver, String pool, String device, boolean adminAccess) {
}
