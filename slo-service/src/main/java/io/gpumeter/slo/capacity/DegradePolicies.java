package io.gpumeter.slo.capacity;

import io.gpumeter.slo.client.Demand;

import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What gives first when a shape's demand exceeds its commitment, as configured: per request shape, else per workload
 * class, else queue (nothing is dropped, new work waits).
 */
public final class DegradePolicies {

    static final Set<String> POLICIES = Set.of("queue", "throttle", "preempt", "degrade");
    static final String CLASS_KEY = "gpumeter.slo.capacity.degrade.";
    static final String SHAPE_KEY = "gpumeter.slo.capacity.degrade-shape.";

    private final Map<String, String> byClass;
    private final Map<String, String> byShape;

    public DegradePolicies(Map<String, String> byClass, Map<String, String> byShape) {
        this.byClass = checked(byClass, CLASS_KEY);
        this.byShape = checked(byShape, SHAPE_KEY);
    }

    CapacityPlan.Degrade of(Demand.Shape shape) {
        String policy = byShape.get(shape.shape());
        return policy != null ? new CapacityPlan.Degrade(policy, SHAPE_KEY + "\"" + shape.shape() + "\"")
                : ofClass(shape.workloadClass());
    }

    /** The policy of a workload class (inference, training, notebook, batch, other). */
    public CapacityPlan.Degrade ofClass(String workloadClass) {
        String policy = byClass.get(workloadClass);
        return policy != null ? new CapacityPlan.Degrade(policy, CLASS_KEY + workloadClass)
                : new CapacityPlan.Degrade("queue", "default (nothing configured for the shape or its class)");
    }

    private static Map<String, String> checked(Map<String, String> configured, String prefix) {
        Map<String, String> out = new TreeMap<>();
        configured.forEach((key, value) -> {
            String policy = value == null ? "" : value.strip().toLowerCase(Locale.ROOT);
            if (!POLICIES.contains(policy)) {
                throw new IllegalArgumentException(prefix + key + " must be one of queue, throttle, preempt or degrade, got '"
                        + value + "'");
            }
            out.put(key, policy);
        });
        return out;
    }
}
