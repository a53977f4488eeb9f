package io.gpumeter.slo.domain;

import java.util.Collection;
import java.util.Locale;
import java.util.Set;

/**
 * What a same-card neighbour runs. A pod that reports request latency here is INFERENCE; otherwise a pod owned by
 * a batch or training controller (Kubernetes or Volcano Job, CronJob, Kubeflow's and Ray's jobs) is TRAINING;
 * anything else is UNKNOWN.
 */
public enum NeighbourKind {
    TRAINING,
    INFERENCE,
    UNKNOWN;

    /** Owner kinds of run-to-completion work; Volcano's batch.volcano.sh Job reports kind "Job" too. */
    public static final Set<String> TRAINING_OWNERS = Set.of("Job", "CronJob", "PyTorchJob", "TFJob", "MPIJob",
            "XGBoostJob", "PaddleJob", "JAXJob", "TrainJob", "RayJob");

    public static NeighbourKind of(String ownerKind, boolean reportsLatency) {
        if (reportsLatency) {
            return INFERENCE;
        }
        return ownerKind != null && TRAINING_OWNERS.contains(ownerKind) ? TRAINING : UNKNOWN;
    }

    /** The kind a minute with these neighbours counts under: training dominates, then inference. */
    public static NeighbourKind dominant(Collection<NeighbourKind> kinds) {
        return kinds.contains(TRAINING) ? TRAINING : kinds.contains(INFERENCE) ? INFERENCE : UNKNOWN;
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
