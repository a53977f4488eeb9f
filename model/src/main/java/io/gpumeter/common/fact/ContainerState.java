package io.gpumeter.common.fact;

import java.time.Instant;

/**
 * A container's state or last state: waiting (reason), running (startedAt) or terminated (reason, exit code,
 * finishedAt).
 */
public record ContainerState(String state, String reason, String message, Integer exitCode, Instant startedAt,
                             Instant finishedAt) {

    public static final String WAITING = "waiting";
    public static final String RUNNING = "running";
    public static final String TERMINATED = "terminated";
}
