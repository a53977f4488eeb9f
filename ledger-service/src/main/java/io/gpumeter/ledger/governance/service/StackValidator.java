package io.gpumeter.ledger.governance.service;

import io.gpumeter.common.fact.DriverSightingFact;
import io.gpumeter.common.fact.GovernanceBatch;
import io.gpumeter.common.fact.NodeStatusFact;
import io.gpumeter.common.fact.NodeTaint;
import io.gpumeter.common.fact.StackPodFact;
import io.gpumeter.common.fact.StackWorkloadFact;
import io.gpumeter.common.problem.ApiProblem;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.gpumeter.ledger.governance.service.GovernanceValidator.check;
import static io.gpumeter.ledger.governance.service.GovernanceValidator.fields;

/**
 * Refuses a batch whose facts of the GPU stack's state lack their natural key or say what no cluster can: a
 * negative quantity or restart count, a label or annotation longer than Kubernetes allows, a workload that is
 * neither a DaemonSet nor a Deployment, a sighting from an unknown data path, a version or image that is blank or
 * longer than any real one. Anything else is stored as the cluster said it: a node with thousands of labels, an
 * image named by digest only, a version that does not look like one (the book compares it as text).
 */
final class StackValidator {

    static final Set<String> WORKLOAD_KINDS = Set.of("DaemonSet", "Deployment");
    static final Set<String> SIGHTING_SOURCES = Set.of("nvidia-smi", "dcgm-exporter");
    /** Kubernetes: a label key is an optional 253-character prefix, a slash and a 63-character name. */
    static final int MAX_KEY = 317;
    static final int MAX_LABEL_VALUE = 63;
    /** Annotation values may be long (up to 256 KiB for all of them); the suite's own are short notes. */
    static final int MAX_ANNOTATION_VALUE = 4096;
    static final int MAX_TEXT = 512;

    private StackValidator() {
    }

    static void validate(GovernanceBatch batch) {
        check(batch.nodeStatuses(), "nodeStatuses", f -> fields("name", f.name(), "resourceVersion", f.resourceVersion(),
                "type", f.type(), "observedAt", f.observedAt()));
        check(batch.stackWorkloads(), "stackWorkloads", f -> fields("namespace", f.namespace(), "name", f.name(),
                "kind", f.kind(), "component", f.component(), "resourceVersion", f.resourceVersion(), "type", f.type(),
                "observedAt", f.observedAt()));
        check(batch.stackPods(), "stackPods", f -> fields("namespace", f.namespace(), "name", f.name(),
                "resourceVersion", f.resourceVersion(), "type", f.type(), "observedAt", f.observedAt(),
                "component", f.component()));
        check(batch.driverSightings(), "driverSightings", f -> fields("node", f.node(), "gpuUuid", f.gpuUuid(),
                "version", f.version(), "source", f.source(), "observedAt", f.observedAt()));
        for (int i = 0; i < batch.nodeStatuses().size(); i++) {
            nodeStatus("nodeStatuses[" + i + "]", batch.nodeStatuses().get(i));
        }
        for (int i = 0; i < batch.stackWorkloads().size(); i++) {
            StackWorkloadFact f = batch.stackWorkloads().get(i);
            String at = "stackWorkloads[" + i + "]";
            if (!WORKLOAD_KINDS.contains(f.kind())) {
                throw ApiProblem.badRequest(at + ".kind", at + ".kind must be DaemonSet or Deployment, got '"
                        + shortened(f.kind()) + "'");
            }
            text(at + ".component", f.component());
            images(at + ".images", f.images());
        }
        for (int i = 0; i < batch.stackPods().size(); i++) {
            StackPodFact f = batch.stackPods().get(i);
            String at = "stackPods[" + i + "]";
            text(at + ".component", f.component());
            if (f.restarts() < 0) {
                throw ApiProblem.badRequest(at + ".restarts", at + ".restarts must be >= 0, got " + f.restarts());
            }
            images(at + ".images", f.images());
        }
        for (int i = 0; i < batch.driverSightings().size(); i++) {
            DriverSightingFact f = batch.driverSightings().get(i);
            String at = "driverSightings[" + i + "]";
            if (!SIGHTING_SOURCES.contains(f.source())) {
                throw ApiProblem.badRequest(at + ".source", at + ".source must be nvidia-smi or dcgm-exporter, got '"
                        + shortened(f.source()) + "'");
            }
            text(at + ".version", f.version());
        }
    }

    private static void nodeStatus(String at, NodeStatusFact f) {
        quantities(at + ".capacity", f.capacity());
        quantities(at + ".allocatable", f.allocatable());
        for (int t = 0; t < f.taints().size(); t++) {
            NodeTaint taint = f.taints().get(t);
            String field = at + ".taints[" + t + "]";
            if (taint == null || taint.key() == null || taint.key().isBlank()) {
                throw ApiProblem.badRequest(field + ".key", field + ".key is required");
            }
        }
        labels(at + ".gpuLabels", f.gpuLabels(), MAX_LABEL_VALUE);
        labels(at + ".suiteAnnotations", f.suiteAnnotations(), MAX_ANNOTATION_VALUE);
    }

    private static void quantities(String field, Map<String, Long> quantities) {
        quantities.forEach((resource, value) -> {
            if (value == null || value < 0) {
                throw ApiProblem.badRequest(field, field + "['" + shortened(resource) + "'] must be a quantity >= 0, got "
                        + value);
            }
        });
    }

    private static void labels(String field, Map<String, String> labels, int maxValue) {
        labels.forEach((key, value) -> {
            if (key.isBlank() || key.length() > MAX_KEY) {
                throw ApiProblem.badRequest(field, field + " has a key of " + key.length()
                        + " characters; a key has 1 to " + MAX_KEY);
            }
            if (value != null && value.length() > maxValue) {
                throw ApiProblem.badRequest(field, field + "['" + shortened(key) + "'] has a value of " + value.length()
                        + " characters; at most " + maxValue + " are allowed");
            }
        });
    }

    private static void images(String field, List<String> images) {
        for (int i = 0; i < images.size(); i++) {
            text(field + "[" + i + "]", images.get(i));
        }
    }

    private static void text(String field, String value) {
        if (value == null || value.isBlank()) {
            throw ApiProblem.badRequest(field, field + " must not be blank");
        }
        if (value.length() > MAX_TEXT) {
            throw ApiProblem.badRequest(field, field + " has " + value.length() + " characters; at most " + MAX_TEXT
                    + " are allowed");
        }
    }

    private static String shortened(String value) {
        return value == null ? "null" : value.length() > 64 ? value.substring(0, 64) + "…" : value;
    }
}
