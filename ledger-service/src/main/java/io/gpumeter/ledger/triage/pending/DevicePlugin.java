package io.gpumeter.ledger.triage.pending;

import java.time.Instant;

/**
 * The device plugin's pod on a node at an instant, as the GPU stack's facts tell it.
 *
 * @param state         READY; NOT_READY (its pod runs but is not ready); ABSENT (the cluster runs device plugin pods,
 *                      none on this node); UNKNOWN (the ledger holds no device plugin pod of the cluster at all)
 * @param waitingReason its container's waiting reason, e.g. CrashLoopBackOff
 */
public record DevicePlugin(State state, String component, String namespace, String name, String waitingReason,
                           int restarts, Instant observedAt) {

    public static final DevicePlugin UNKNOWN = new DevicePlugin(State.UNKNOWN, null, null, null, null, 0, null);

    /** What the ledger knows of a node's device plugin. */
    public enum State {
        READY, NOT_READY, ABSENT, UNKNOWN
    }

    public static DevicePlugin absent(String component, String namespace) {
        return new DevicePlugin(State.ABSENT, component, namespace, null, null, 0, null);
    }
}
