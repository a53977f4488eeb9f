package io.gpumeter.launcher.simulator;

import io.fabric8.kubernetes.api.model.HasMetadata;

import java.time.Instant;

/**
 * One watch event of the simulated history: what a watcher of the API server would receive at {@code at}.
 *
 * @param object a complete snapshot of the object after the change (before it, for nothing: DELETED carries the
 *               last state); never shared with another event, and never to be mutated
 */
public record SimEvent(Instant at, EventType type, HasMetadata object) {

    public String kind() {
        return object.getKind();
    }
}
