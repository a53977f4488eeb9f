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
            requireKey("namespaces[" + i + "].", f.name(), f.resourceVersion(), f.type(), f.observedAt());
        }
        List<NodeFact> nodes = batch.nodes();
        for (int i = 0; i < nodes.size(); i++) {
            NodeFact f = nodes.get(i);
            requireKey("nodes[" + i + "].", f.name(), f.resourceVersion(), f.type(), f.observedAt());
        }
        List<PodFact> pods = batch.pods();
        for (int i = 0; i < pods.size(); i++) {
            PodFact f = pods.get(i);
            String at = "pods[" + i + "].";
            require(f.uid(), at + "uid");
            require(f.namespace(), at + "namespace");
            requireKey(at, f.name(), f.resourceVersion(), f.type(), f.observedAt());
            for (int c = 0; c < f.claims().size(); c++) {
                require(f.claims().get(c).name(), at + "claims[" + c + "].name");
            }
        }
        List<ResourceClaimFact> claims = batch.resourceClaims();
        for (int i = 0; i < claims.size(); i++) {
            ResourceClaimFact f = claims.get(i);
            String at = "resourceClaims[" + i + "].";
            require(f.uid(), at + "uid");
            require(f.namespace(), at + "namespace");
            requireKey(at, f.name(), f.resourceVersion(), f.type(), f.observedAt());
            for (int r = 0; r < f.results().size(); r++) {
                ClaimResult result = f.results().get(r);
                String rat = at + "results[" + r + "].";
                require(result.driver(), rat + "driver");
                require(result.pool(), rat + "pool");
                require(result.device(), rat + "device");
            }
        }
        List<ResourceSliceFact> slices = batch.resourceSlices();
        for (int i = 0; i < slices.size(); i++) {
            ResourceSliceFact f = slices.get(i);
            String at = "resourceSlices[" + i + "].";
            requireKey(at, f.name(), f.resourceVersion(), f.type(), f.observedAt());
            require(f.driver(), at + "driver");
            require(f.pool(), at + "pool");
            for (int d = 0; d < f.devices().size(); d++) {
                require(f.devices().get(d).name(), at + "devices[" + d + "].name");
            }
        }
        List<DeviceClassFact> classes = batch.deviceClasses();
        for (int i = 0; i < classes.size(); i++) {
            DeviceClassFact f = classes.get(i);
            requireKey("deviceClasses[" + i + "].", f.name(), f.resourceVersion(), f.type(), f.observedAt());
        }
    }

    /** The natural key every fact has: which object, which version, what happened, when seen. */
    private static void requireKey(String at, String name, String resourceVersion, Object type, Object observedAt) {
        require(name, at + "name");
        require(resourceVersion, at + "resourceVersion");
        require(type, at + "type");
        require(observedAt, at + "observedAt");
    }

    private static void require(Object value, String field) {
        if (value == null || (value instanceof String s && s.isBlank())) {
            throw ApiProblem.badRequest(field, field + " is required");
        }
    }
}
