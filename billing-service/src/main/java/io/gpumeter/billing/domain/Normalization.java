package io.gpumeter.billing.domain;

/**
 * The ledger's rule for turning MIG slices, vGPU shares and time-sliced replicas into card-equivalents.
 */
public record Normalization(String policy, String version) {

    public static final Normalization UNKNOWN = new Normalization(ModelName.UNKNOWN, ModelName.UNKNOWN);

    public Normalization {
        policy = policy == null || policy.isBlank() ? ModelName.UNKNOWN : policy;
        version = version == null || version.isBlank() ? ModelName.UNKNOWN : version;
    }
}
