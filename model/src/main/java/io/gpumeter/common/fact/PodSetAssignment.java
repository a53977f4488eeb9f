package io.gpumeter.common.fact;

import java.math.BigDecimal;
import java.util.Map;

/** Where Kueue placed one pod set: the flavor per resource and the quota it charged. */
public record PodSetAssignment(String name, int count, Map<String, String> flavors, Map<String, BigDecimal> resourceUsage) {

    public PodSetAssignment {
        flavors = flavors == null ? Map.of() : Map.copyOf(flavors);
        resourceUsage = resourceUsage == null ? Map.of() : Map.copyOf(resourceUsage);
    }
}
