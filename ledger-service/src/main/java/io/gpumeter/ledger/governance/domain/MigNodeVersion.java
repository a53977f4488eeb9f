package io.gpumeter.ledger.governance.domain;

import java.time.Instant;
import java.util.Map;

/**
 * One stored version of a node as MIG consistency reads it: the labels of NVIDIA's domain that name and qualify its
 * layout, and, for a version of the node's status, what it offers ({@code allocatable}; null for a version of its
 * labels alone).
 *
 * @param deleted whether the version is the node's deletion
 */
public record MigNodeVersion(Instant at, long order, boolean deleted, Map<String, String> labels,
                             Map<String, Long> allocatable) {

    public static final String STRATEGY = "nvidia.com/mig.strategy";

    public MigNodeVersion {
        labels = labels == null ? Map.of() : Map.copyOf(labels);
        allocatable = allocatable == null ? null : Map.copyOf(allocatable);
    }

    public boolean status() {
        return allocatable != null;
    }
}
