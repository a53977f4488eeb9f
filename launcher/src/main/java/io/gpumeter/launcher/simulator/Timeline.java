package io.gpumeter.launcher.simulator;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.Deployment;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Collects events in any order and hands them back as a watch stream: ordered by time (ties keep the order they
 * were added in), cut at the end of the history, with strictly increasing resourceVersions.
 */
final class Timeline {

    /** Where the resourceVersions of a simulated stream start. */
    static final long FIRST_RESOURCE_VERSION = 100_000;

    private record Entry(Instant at, long seq, EventType type, HasMetadata object) {
    }

    private final Instant end;
    private final List<Entry> entries = new ArrayList<>();

    Timeline(Instant end) {
        this.end = end;
    }

    /** Adds an event; one at or after the end of the history is dropped, as a watcher would not have seen it yet. */
    void add(Instant at, EventType type, HasMetadata object) {
        if (at.isBefore(end)) {
            entries.add(new Entry(at, entries.size(), type, object));
        }
    }

    List<SimEvent> events() {
        List<Entry> sorted = new ArrayList<>(entries);
        sorted.sort(Comparator.comparing(Entry::at).thenComparingLong(Entry::seq));
        List<SimEvent> events = new ArrayList<>(sorted.size());
        long version = FIRST_RESOURCE_VERSION;
        for (Entry e : sorted) {
            e.object().getMetadata().setResourceVersion(Long.toString(version++));
            written(e.object(), e.at());
            events.add(new SimEvent(e.at(), e.type(), e.object()));
        }
        return events;
    }

    /**
     * Dates a node's, a pod's or the GPU stack's version as an API server does, by its writer's managedFields entry,
     * so that a replay of the history tells when each of their changes happened rather than when it was replayed.
     */
    private static void written(HasMetadata object, Instant at) {
        ObjectMeta meta = object.getMetadata();
        boolean stack = object instanceof DaemonSet || object instanceof Deployment;
        if (!(object instanceof Node) && !(object instanceof Pod) && !stack
                || meta.getManagedFields() != null && !meta.getManagedFields().isEmpty()) {
            return;
        }
        meta.setManagedFields(List.of(new ManagedFieldsEntryBuilder()
                .withManager(object instanceof Pod || object instanceof Node ? "kubelet" : "kube-controller-manager")
                .withOperation("Update").withApiVersion(object.getApiVersion()).withTime(Rfc3339.format(at)).build()));
    }

}
