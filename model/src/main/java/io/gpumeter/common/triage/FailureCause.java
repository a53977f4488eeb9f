package io.gpumeter.common.triage;

import java.util.Locale;

/** The failure causes the ledger counts, each with its root-cause class; Xids are classed by {@link XidCatalog}. */
public enum FailureCause {
    /** Killed for memory; when triaged, its own growth (its memory rose to its grant or limit). */
    OOM(RootCauseClass.WORKLOAD),
    CUDA_OOM(RootCauseClass.WORKLOAD),
    /** Out of card memory while its own use stayed under its grant: the neighbours on the card filled it. */
    NEIGHBOUR_MEMORY_PRESSURE(RootCauseClass.DATA_PLANE),
    /** A shared card's grant was not enforced: a HAMi share used more memory than it was granted. */
    ISOLATION_NOT_ENFORCED(RootCauseClass.OPERATIONS_CONFIGURATION),
    /** The node's kernel OOM killer ended it (node memory, not the card's). */
    NODE_OOM(RootCauseClass.DATA_PLANE),
    GPU_INVISIBLE(RootCauseClass.DATA_PLANE),
    CUDA_DRIVER_MISMATCH(RootCauseClass.OPERATIONS_CONFIGURATION),
    TOPOLOGY_AFFINITY(RootCauseClass.DATA_PLANE),
    DEVICE_ADMISSION(RootCauseClass.DATA_PLANE),
    NCCL_HANG(RootCauseClass.DATA_PLANE),
    CONTAINER_START(RootCauseClass.DATA_PLANE),
    CONTAINER_CONFIG(RootCauseClass.OPERATIONS_CONFIGURATION),
    IMAGE_PULL(RootCauseClass.WORKLOAD),
    CRASH_LOOP(RootCauseClass.WORKLOAD),
    POD_SANDBOX(RootCauseClass.DATA_PLANE),
    GPU_LOST(RootCauseClass.DATA_PLANE),
    /** The card's memory needs a reset or a replacement (row remapping, double-bit ECC, page retirement). */
    GPU_HEALTH(RootCauseClass.DATA_PLANE),
    MIG_RECONFIGURATION(RootCauseClass.OPERATIONS_CONFIGURATION),
    MIG_FAILED(RootCauseClass.OPERATIONS_CONFIGURATION),
    MIG_INCONSISTENT(RootCauseClass.OPERATIONS_CONFIGURATION),
    /** A slow service whose neighbours on its card rose when its latency did. */
    NEIGHBOUR_INTERFERENCE(RootCauseClass.DATA_PLANE),
    /** A slow service whose own request rate rose while no neighbour changed. */
    OWN_LOAD(RootCauseClass.WORKLOAD),
    /** Its container's CPU at its limit, or throttled by CFS above the threshold: the GPU waits for the host. */
    CPU_SATURATED(RootCauseClass.WORKLOAD),
    /** The node's I/O pressure, or the pod's own disk, held the work back. */
    IO_WAIT(RootCauseClass.DATA_PLANE),
    /** The pod's network took the configured share of the node's: the work waited on the wire. */
    NETWORK(RootCauseClass.DATA_PLANE),
    /** The card slowed its clocks for power or heat (a power cap, a hardware slowdown, thermal limits). */
    POWER_OR_THERMAL(RootCauseClass.DATA_PLANE),
    /** A slow service whose cause the inputs at hand cannot name; the answer says what it could not rule out. */
    UNEXPLAINED(RootCauseClass.DATA_PLANE),
    /** Using more than declared: a quota's soft limit exceeded. */
    QUOTA_SOFT(RootCauseClass.CONTROL_PLANE),
    /** Using more than declared: a quota's hard limit exceeded. */
    QUOTA_HARD(RootCauseClass.CONTROL_PLANE),
    /** Using a GPU no admission granted (bypassing the queue). */
    QUOTA_BYPASS(RootCauseClass.CONTROL_PLANE),
    /** A HAMi grant that the cluster's own components do not confirm. */
    HAMI_GRANT_UNVERIFIED(RootCauseClass.CONTROL_PLANE);

    private final RootCauseClass rootCause;

    FailureCause(RootCauseClass rootCause) {
        this.rootCause = rootCause;
    }

    public RootCauseClass rootCause() {
        return rootCause;
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The cause a label names (a pushed log signal's, a stored incident's), or null. */
    public static FailureCause ofLabel(String label) {
        for (FailureCause c : values()) {
            if (c.label().equals(label)) {
                return c;
            }
        }
        return null;
    }

    /** The cause of a container waiting or terminated reason, or null when the reason is no failure. */
    public static FailureCause ofContainerReason(String reason) {
        if (reason == null) {
            return null;
        }
        return switch (reason) {
            case "OOMKilled" -> OOM;
            case "CreateContainerError", "RunContainerError", "StartError", "ContainerCannotRun", "PreStartHookError",
                 "PostStartHookError", "PreCreateHookError" -> CONTAINER_START;
            case "CreateContainerConfigError" -> CONTAINER_CONFIG;
            case "ErrImagePull", "ImagePullBackOff", "InvalidImageName", "ErrImageNeverPull" -> IMAGE_PULL;
            case "CrashLoopBackOff" -> CRASH_LOOP;
            default -> null;
        };
    }

    /** The cause of a pod-level status.reason or event reason, or null. */
    public static FailureCause ofPodReason(String reason) {
        if (reason == null) {
            return null;
        }
        return switch (reason) {
            case "TopologyAffinityError" -> TOPOLOGY_AFFINITY;
            case "UnexpectedAdmissionError" -> DEVICE_ADMISSION;
            case "FailedCreatePodSandBox" -> POD_SANDBOX;
            default -> null;
        };
    }
}
