package io.gpumeter.collector.kubernetes;

/**
 * What the collector takes for the GPU stack's state: which workloads are its components, and what a node's status
 * keeps. One for the whole collector, built from its configuration; a sink reads every event against it.
 */
public record GpuStack(StackComponents components, NodeStatusSettings nodeStatus) {

    /** No components, and the node status settings' defaults. */
    public static final GpuStack NONE = new GpuStack(StackComponents.NONE, NodeStatusSettings.DEFAULT);

    public GpuStack {
        components = components == null ? StackComponents.NONE : components;
        nodeStatus = nodeStatus == null ? NodeStatusSettings.DEFAULT : nodeStatus;
    }
}
