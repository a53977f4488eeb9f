package io.gpumeter.ledger.service;

import io.gpumeter.common.fact.ClaimResult;
import io.gpumeter.common.fact.ClusterName;
import io.gpumeter.common.fact.DeviceClassFact;
import io.gpumeter.common.fact.FactBatch;
import io.gpumeter.common.fact.NamespaceFact;
import io.gpumeter.common.fact.NodeFact;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.common.fact.ResourceClaimFact;
import io.gpumeter.common.fact.ResourceSliceFact;
import io.gpumeter.common.problem.ApiProblem;

import java.util.List;

/** Refuses a batch whose facts lack their natural key, naming the first offending field. */
final class FactValidator {

    void validate(FactBatch batch) {
        if (batch == null) {
            throw ApiProblem.badRequest("body", "a fact batch is required");
        }
        ClusterName.require("cluster", batch.cluster());
        List<NamespaceFact> namespaces = batch.namespaces();
        for (int i = 0; i < namespaces.size(); i++) {
            NamespaceFact f = namespaces.get(i);
            requireKey("namespaces", i, f.name(), f.resourceVersion(), f.type(), f.observedAt());
        }
        List<NodeFact> nodes = batch.nodes();
        for (int i = 0; i < nodes.size(); i++) {
            NodeFact f = nodes.get(i);
            requireKey("nodes", i, f.name(), f.resourceVersion(), f.type(), f.observedAt());
        }
        List<PodFact> pods = batch.pods();
        for (int i = 0; i < pods.size(); i++) {
            PodFact f = pods.get(i);
            require(f.uid(), "pods", i, "uid");
            require(f.namespace(), "pods", i, "namespace");
            requireKey("pods", i, f.name(), f.resourceVersion(), f.type(), f.observedAt());
            for (int c = 0; c < f.claims().size(); c++) {
                require(f.claims().get(c).name(), "pods[" + i + "].claims", c, "name");
            }
        }
        List<ResourceClaimFact> claims = batch.resourceClaims();
        for (int i = 0; i < claims.size(); i++) {
            ResourceClaimFact f = claims.get(i);
            require(f.uid(), "resourceClaims", i, "uid");
            require(f.namespace(), "resourceClaims", i, "namespace");
            requireKey("resourceClaims", i, f.name(), f.resourceVersion(), f.type(), f.observedAt());
            for (int r = 0; r < f.results().size(); r++) {
                ClaimResult result = f.results().get(r);
                String results = "resourceClaims[" + i + "].results";
                require(result.driver(), results, r, "driver");
                require(result.pool(), results, r, "pool");
                require(result.device(), results, r, "device");
            }
        }
        List<ResourceSliceFact> slices = batch.resourceSlices();
        for (int i = 0; i < slices.size(); i++) {
            ResourceSliceFact f = slices.get(i);
            requireKey("resourceSlices", i, f.name(), f.resourceVersion(), f.type(), f.observedAt());
            require(f.driver(), "resourceSlices", i, "driver");
            require(f.pool(), "resourceSlices", i, "pool");
            for (int d = 0; d < f.devices().size(); d++) {
                require(f.devices().get(d).name(), "resourceSlices[" + i + "].devices", d, "name");
            }
        }
        List<DeviceClassFact> classes = batch.deviceClasses();
        for (int i = 0; i < classes.size(); i++) {
            DeviceClassFact f = classes.get(i);
            requireKey("deviceClasses", i, f.name(), f.resourceVersion(), f.type(), f.observedAt());
        }
    }

    /** The natural key every fact has: which object, which version, what happened, when seen. */
    private static void requireKey(String list, int index, String name, String resourceVersion, Object type,
                                   Object observedAt) {
        require(name, list, index, "name");
        require(resourceVersion, list, index, "resourceVersion");
        require(type, list, index, "type");
        require(observedAt, list, index, "observedAt");
    }

    /** Requires {@code list[index].field}; its path is spelled out only when it is missing. */
    private static void require(Object value, String list, int index, String field) {
        if (value == null || (value instanceof String s && s.isBlank())) {
            String path = list + "[" + index + "]." + field;
            throw ApiProblem.badRequest(path, path + " is required");
        }
    }
}
