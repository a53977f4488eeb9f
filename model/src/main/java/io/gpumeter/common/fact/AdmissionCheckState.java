package io.gpumeter.common.fact;

import java.time.Instant;

/** The state of one Kueue admission check on a Workload (Pending, Ready, Retry, Rejected). */
public record AdmissionCheckState(String name, String state, String message, Instant lastTransitionTime) {
}
