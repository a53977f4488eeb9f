package io.gpumeter.ledger.demand.domain;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Each pod's class as the demand's shapes tell pods apart: its workload classification, by its newest version, and
 * the device class of its DRA units. Pods of one class are numbered alike, so that the hours of all of them can be
 * added up by the database in one group rather than sent pod by pod and day by day.
 */
public final class PodClasses {

    /** @param draClass the device class of the pod's DRA units, null for a pod without any */
    public record PodClass(WorkloadClassifier.Classification classification, String draClass) {
    }

    private final WorkloadClassifier classifier;
    private final Map<String, PodIdentity> identities;
    private final Map<String, String> draClasses;
    private final Map<PodClass, Integer> indexOf = new HashMap<>();
    private final List<PodClass> classes = new ArrayList<>();
    private final Map<String, Integer> indexByPod = new LinkedHashMap<>();

    /**
     * @param identities what each pod is by its newest version, keyed {@code cluster|uid} (a pod without one is
     *                   classified as of no namespace, name, owner or labels)
     * @param draClasses the device class of each DRA pod's units, keyed alike
     */
    public PodClasses(WorkloadClassifier classifier, Map<String, PodIdentity> identities, Map<String, String> draClasses) {
        this.classifier = classifier;
        this.identities = identities;
        this.draClasses = draClasses;
    }

    /** Classifies the pod ({@code cluster|uid}) once. */
    public void classify(String pod) {
        indexByPod.computeIfAbsent(pod, key -> {
            PodIdentity identity = identities.get(key);
            WorkloadClassifier.Classification c = identity == null ? classifier.classify(null, null, null, Map.of())
                    : classifier.classify(identity.namespace(), identity.name(), identity.owner(), identity.labels());
            return indexOf.computeIfAbsent(new PodClass(c, draClasses.get(key)), pc -> {
                classes.add(pc);
                return classes.size() - 1;
            });
        });
    }

    /** The class of a pod classified before. */
    public PodClass of(String pod) {
        return classes.get(indexByPod.get(pod));
    }

    public PodClass byIndex(int index) {
        return classes.get(index);
    }

    /** Every pod classified ({@code cluster|uid}) with its class's number, in the order they were classified. */
    public Map<String, Integer> indexByPod() {
        return indexByPod;
    }
}
