package io.gpumeter.ledger.service;

import io.gpumeter.common.fact.ClusterName;
import io.gpumeter.common.fact.FactBatch;
import io.gpumeter.common.fact.NamespaceFact;
import io.gpumeter.common.fact.NodeFact;
import io.gpumeter.common.fact.PodFact;
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
