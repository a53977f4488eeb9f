package io.gpumeter.launcher.simulator;

/**
 * The controller of a pod as its ownerReferences name it.
 *
 * @param deployment the Deployment behind a ReplicaSet, null for other kinds
 */
public record PodOwner(String kind, String name, String uid, String deployment) {
}
