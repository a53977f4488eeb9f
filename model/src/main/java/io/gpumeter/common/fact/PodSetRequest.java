package io.gpumeter.common.fact;

import java.math.BigDecimal;
import java.util.Map;

/**
 * One pod set of a Kueue Workload: how many pods and what each asks for.
 *
 * @param requests      per pod, resource name to amount (cores, bytes, devices)
 * @param schedulerName the pod template's schedulerName, when it names one
 */
public record PodSetRequest(String name, int count, Map<String, BigDecimal> requests, String schedulerName) {

    public PodSetRequest {
        requests = requests == null ? Map.of() : Map.copyOf(requests);
    }
}
