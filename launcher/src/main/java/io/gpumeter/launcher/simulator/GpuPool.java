package io.gpumeter.launcher.simulator;

/** How a node pool hands out its GPUs. */
public enum GpuPool {
    /** HAMi vGPU sharing: memory and core percentages of one card, up to ten tenants per card. */
    HAMI,
    /** NVIDIA device plugin, whole cards only. */
    WHOLE_CARD,
    /** NVIDIA device plugin with the mixed MIG strategy: every card cut into fixed instances. */
    MIG,
    /**
     * NVIDIA's DRA driver: cards and MIG devices published as ResourceSlices, held through ResourceClaims; no device
     * plugin, so the node advertises no GPU resource.
     */
    DRA
}
