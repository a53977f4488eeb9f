package io.gpumeter.common.fact;

import java.util.List;

/**
 * One idempotent delivery of observations from a collector to the ledger; every element has a natural key. The
 * resource claims, slices and device classes are Dynamic Resource Allocation objects (resource.k8s.io/v1).
 *
 * @param cluster the cluster all facts belong to, so one suite can meter several clusters
 */
public record FactBatch(String cluster, List<NamespaceFact> namespaces, List<NodeFact> nodes, List<PodFact> pods,
                        List<ResourceClaimFact> resourceClaims, List<ResourceSliceFact> resourceSlices,
                        List<DeviceClassFact> deviceClasses) {

    public FactBatch {
        namespaces = namespaces == null ? List.of() : List.copyOf(namespaces);
        nodes = nodes == null ? List.of() : List.copyOf(nodes);
        pods = pods == null ? List.of() : List.copyOf(pods);
        resourceClaims = resourceClaims == null ? List.of() : List.copyOf(resourceClaims);
        resourceSlices = resourceSlices == null ? List.of() : List.copyOf(resourceSlices);
        deviceClasses = deviceClasses == null ? List.of() : List.copyOf(deviceClasses);
    }

    /** A batch without Dynamic Resource Allocation objects. */
    public FactBatch(String cluster, List<NamespaceFact> namespaces, List<NodeFact> nodes, List<PodFact> pods) {
        this(cluster, namespaces, nodes, pods, List.of(), List.of(), List.of());
    }

    public int size() {
        return namespaces.size() + nodes.size() + pods.size() + resourceClaims.size() + resourceSlices.size()
                + deviceClasses.size();
    }
}
