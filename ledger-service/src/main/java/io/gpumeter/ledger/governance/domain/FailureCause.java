package io.gpumeter.ledger.governance.domain;

import java.util.Locale;

/** The failure causes the ledger counts, each with its root-cause class; Xids are classed by {@link XidCatalog}. */
public enum FailureCause {
    OOM(RootCauseClass.WORKLOAD),
    CUDA_OOM(RootCauseClass.WORKLOAD),
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
    MIG_RECONFIGURATION(RootCauseClass.OPERATIONS_CONFIGURATION);

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

    /** The cause a pushed log signal names, or null. */
    public static FailureCause ofSignal(String signal) {
        for (FailureCause c : values()) {
            if (c.label().equals(signal)) {
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
