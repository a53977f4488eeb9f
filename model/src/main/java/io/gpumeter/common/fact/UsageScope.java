package io.gpumeter.common.fact;

/** What a usage series measures: the whole card, one MIG instance, one container's share, or one process. */
public enum UsageScope {
    DEVICE, MIG_INSTANCE, CONTAINER, PROCESS
}
