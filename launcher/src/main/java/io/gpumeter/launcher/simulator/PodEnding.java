package io.gpumeter.launcher.simulator;

/** How a pod's story ends as far as the simulated stream shows it. */
public enum PodEnding {
    /** Never scheduled before the end of the history. */
    PENDING_AT_END,
    /** Still holding its GPUs at the end of the history (possibly already terminating). */
    RUNNING_AT_END,
    /** Every container terminated on its own (phase Succeeded or Failed). */
    COMPLETED,
    /** Deleted while running: deletionTimestamp with a 30 s grace period, containers stopped, then gone. */
    GRACEFUL_DELETE,
    /** Deleted while running with grace period 0: gone at once, containers still running in the last state. */
    FORCED_DELETE
}
