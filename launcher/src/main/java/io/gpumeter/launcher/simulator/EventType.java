package io.gpumeter.launcher.simulator;

/** The three verbs of a Kubernetes watch stream. */
public enum EventType {
    ADDED, MODIFIED, DELETED
}
