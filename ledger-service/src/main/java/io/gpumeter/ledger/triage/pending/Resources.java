package io.gpumeter.ledger.triage.pending;

import java.util.Map;

/** The GPU resources a wait is judged by: which one a request is decided on, and how much of it one pod needs. */
public final class Resources {

    public static final String GPU = "nvidia.com/gpu";
    public static final String MIG_PREFIX = "nvidia.com/mig-";
    /** GPU feature discovery's count of a node's whole GPUs. */
    public static final String GPU_COUNT_LABEL = "nvidia.com/gpu.count";

    private Resources() {
    }

    /**
     * The resource a pod's request is decided on: a MIG profile it asks for, else whole GPUs (HAMi's shares count
     * against them too), else the first GPU resource it names; null when it asks for none.
     */
    public static String decidingResource(Map<String, Long> asks) {
        String first = null;
        for (String resource : asks.keySet().stream().sorted().toList()) {
            if (resource.startsWith(MIG_PREFIX)) {
                return resource;
            }
            if (first == null && asks.get(resource) != null && asks.get(resource) > 0) {
                first = resource;
            }
        }
        if (asks.containsKey(GPU) || asks.keySet().stream().anyMatch(r -> r.startsWith("nvidia.com/gpu"))) {
            return GPU;
        }
        return first;
    }

    /** How many of the resource one pod needs: what it asks, else one (HAMi's default for a share). */
    public static long need(Map<String, Long> asks, String resource) {
        Long n = asks.get(resource);
        return n == null || n <= 0 ? 1 : n;
    }

    public static boolean isMig(String resource) {
        return resource != null && resource.startsWith(MIG_PREFIX);
    }
}
