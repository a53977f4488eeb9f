package io.gpumeter.ledger.governance.service;

import io.gpumeter.common.fact.ClusterName;
import io.gpumeter.common.fact.GovernanceBatch;
import io.gpumeter.common.fact.PendingPositionFact;
import io.gpumeter.common.problem.ApiProblem;

import java.util.List;
import java.util.function.Function;

/** Refuses a governance batch whose facts lack their natural key, naming the first offending field. */
final class GovernanceValidator {

    void validate(GovernanceBatch batch) {
        if (batch == null) {
            throw ApiProblem.badRequest("body", "a governance batch is required");
        }
        ClusterName.require("cluster", batch.cluster());
        check(batch.workloads(), "workloads", f -> fields("uid", f.uid(), "namespace", f.namespace(), "name", f.name(),
                "resourceVersion", f.resourceVersion(), "type", f.type(), "observedAt", f.observedAt(), "createdAt", f.createdAt()));
        check(batch.queueObjects(), "queueObjects", f -> fields("kind", f.kind(), "name", f.name(),
                "resourceVersion", f.resourceVersion(), "type", f.type(), "observedAt", f.observedAt()));
        check(batch.podGroups(), "podGroups", f -> fields("uid", f.uid(), "namespace", f.namespace(), "name", f.name(),
                "resourceVersion", f.resourceVersion(), "type", f.type(), "observedAt", f.observedAt(), "createdAt", f.createdAt()));
        check(batch.volcanoJobs(), "volcanoJobs", f -> fields("uid", f.uid(), "namespace", f.namespace(), "name", f.name(),
                "resourceVersion", f.resourceVersion(), "type", f.type(), "observedAt", f.observedAt()));
        check(batch.events(), "events", f -> fields("uid", f.uid(), "resourceVersion", f.resourceVersion(),
                "observedAt", f.observedAt(), "involvedKind", f.involvedKind(), "involvedName", f.involvedName(),
                "reason", f.reason(), "firstAt", f.firstAt(), "lastAt", f.lastAt()));
        check(batch.podStatuses(), "podStatuses", f -> fields("uid", f.uid(), "namespace", f.namespace(), "name", f.name(),
                "resourceVersion", f.resourceVersion(), "type", f.type(), "observedAt", f.observedAt()));
        check(batch.xids(), "xids", f -> fields("node", f.node(), "pciBusId", f.pciBusId(), "at", f.at()));
        check(batch.gpuAddresses(), "gpuAddresses", f -> fields("node", f.node(), "pciBusId", f.pciBusId(),
                "gpuUuid", f.gpuUuid(), "at", f.at()));
        check(batch.logSignals(), "logSignals", f -> fields("namespace", f.namespace(), "pod", f.pod(), "at", f.at(),
                "signal", f.signal()));
        check(batch.pendingPositions(), "pendingPositions", f -> fields("clusterQueue", f.clusterQueue(),
                "namespace", f.namespace(), "workload", f.workload(), "observedAt", f.observedAt(),
                "positionInClusterQueue", f.positionInClusterQueue()));
        StackValidator.validate(batch);
        for (int i = 0; i < batch.pendingPositions().size(); i++) {
            PendingPositionFact f = batch.pendingPositions().get(i);
            notNegative("pendingPositions[" + i + "].positionInClusterQueue", f.positionInClusterQueue());
            notNegative("pendingPositions[" + i + "].positionInLocalQueue", f.positionInLocalQueue());
        }
    }

    private static void notNegative(String field, Integer value) {
        if (value != null && value < 0) {
            throw ApiProblem.badRequest(field, field + " must be >= 0, got " + value);
        }
    }

    static <T> void check(List<T> facts, String list, Function<T, Object[]> required) {
        for (int i = 0; i < facts.size(); i++) {
            T fact = facts.get(i);
            if (fact == null) {
                throw ApiProblem.badRequest(list + "[" + i + "]", list + "[" + i + "] is null");
            }
            Object[] namesAndValues = required.apply(fact);
            for (int f = 0; f < namesAndValues.length; f += 2) {
                Object value = namesAndValues[f + 1];
                if (value == null || value instanceof String s && s.isBlank()) {
                    String name = list + "[" + i + "]." + namesAndValues[f];
                    throw ApiProblem.badRequest(name, name + " is required");
                }
            }
        }
    }

    /** The required fields of a fact as name, value, name, value…, checked in that order. */
    static Object[] fields(Object... namesAndValues) {
        return namesAndValues;
    }
}
