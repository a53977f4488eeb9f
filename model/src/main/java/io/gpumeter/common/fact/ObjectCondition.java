package io.gpumeter.common.fact;

import java.time.Instant;

/** One entry of an object's status.conditions, as Kubernetes, Kueue and Volcano write them. */
public record ObjectCondition(String type, String status, String reason, String message, Instant lastTransitionTime) {

    public boolean isTrue() {
        return "True".equals(status);
    }
}
