package io.gpumeter.common.fact;

/** One container of a pod version; init containers are flagged. */
public record ContainerStatusFact(String name, boolean init, int restartCount, ContainerState state,
                                  ContainerState lastState) {
}
