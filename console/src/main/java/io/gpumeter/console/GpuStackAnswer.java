package io.gpumeter.console;

import io.quarkus.runtime.annotations.RegisterForReflection;

import java.util.List;

/**
 * The ledger's {@code GET /api/v1/nodes/{node}/gpu-stack} as the Changes page binds it: what one node's GPU stack
 * offered at an instant — its GPU resources, cordon and taints, the labels its feature discovery set, each stack
 * component's workloads and its pod there, and the driver versions the cards' data paths saw.
 *
 * @param cordoned null when the ledger does not know
 */
@RegisterForReflection
record GpuStackAnswer(String at, boolean present, List<Resource> resources, Boolean cordoned, List<Taint> taints, Labels gpuLabels,
                      List<Component> components, List<DriverSeen> driverVersions) {

    @RegisterForReflection
    record Resource(String resource, Long capacity, Long allocatable) {
    }

    @RegisterForReflection
    record Taint(String key, String value, String effect) {
    }

    @RegisterForReflection
    record Labels(String driverVersion, String cudaVersion, String product, String migConfig, String migConfigState) {
    }

    @RegisterForReflection
    record Component(String component, List<Workload> workloads, Pod pod) {
    }

    @RegisterForReflection
    record Workload(String version) {
    }

    @RegisterForReflection
    record Pod(String state, String namespace, String name, Integer restarts, String waitingReason, String version) {
    }

    @RegisterForReflection
    record DriverSeen(String source, String gpuUuid, String version) {
    }
}
