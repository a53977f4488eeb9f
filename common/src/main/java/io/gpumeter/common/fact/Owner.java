package io.gpumeter.common.fact;

/** The controller that owns a pod, already resolved (a ReplicaSet of a Deployment is reported as the Deployment). */
public record Owner(String kind, String name) {
}
