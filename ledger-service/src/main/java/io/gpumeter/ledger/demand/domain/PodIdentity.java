package io.gpumeter.ledger.demand.domain;

import io.gpumeter.common.fact.Owner;

import java.util.Map;

/**
 * What a pod is by its newest version: the fields its workload class is decided by (see {@link WorkloadClassifier}).
 *
 * @param owner its controller, null when the version names none
 */
public record PodIdentity(String namespace, String name, Owner owner, Map<String, String> labels) {

    public PodIdentity {
        labels = labels == null ? Map.of() : labels;
    }
}
