package io.gpumeter.common.fact;

/**
 * The controller that owns a pod, already resolved (a ReplicaSet of a Deployment is reported as the Deployment).
 *
 * @param apiVersion the ownerReference's apiVersion as the controller wrote it ({@code apps/v1},
 *                   {@code batch.volcano.sh/v1alpha1}): its group tells a Volcano Job from a batch/v1 Job; null when
 *                   the version was delivered without it
 */
public record Owner(String kind, String name, String apiVersion) {

    /** An owner whose API version was not reported. */
    public Owner(String kind, String name) {
        this(kind, name, null);
    }
}
