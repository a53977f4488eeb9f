package io.gpumeter.collector.governance;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.gpumeter.collector.kubernetes.Skip;
import io.gpumeter.common.fact.EventFact;

import java.time.Instant;
import java.util.Set;

/**
 * Keeps the events that explain scheduling, admission and failures: every Warning about a pod, workload, pod group,
 * Volcano job or node, and the Normal ones that mark a decision (scheduled, admitted, preempted…).
 */
final class EventTranslator {

    static final Set<String> SUBJECTS = Set.of("Pod", "Workload", "PodGroup", "Job", "Node", "ClusterQueue", "LocalQueue");
    /** The subjects that belong to no namespace: their events live in {@code default}, where tenants do not write. */
    static final Set<String> CLUSTER_SCOPED = Set.of("Node", "ClusterQueue");

    /** Normal events that record a decision rather than routine progress. */
    static final Set<String> DECISIONS = Set.of("Scheduled", "Preempted", "QuotaReserved", "Admitted", "Pending",
            "Evicted", "EvictedDueToPodsReadyTimeout", "EvictedDueToAdmissionCheck", "Requeued", "Finished",
            "Unschedulable", "Inqueue", "PodGroupPending", "PodGroupInqueue", "PodGroupRunning", "Killing");

    private EventTranslator() {
    }

    static EventFact core(Event e, Instant observedAt) {
        ObjectMeta meta = meta(e.getMetadata());
        ObjectReference about = e.getInvolvedObject();
        Instant first = time(e.getFirstTimestamp(), "firstTimestamp");
        if (first == null && e.getEventTime() != null) {
            first = time(e.getEventTime().getTime(), "eventTime");
        }
        Instant last = time(e.getLastTimestamp(), "lastTimestamp");
        int count = e.getCount() == null ? 1 : e.getCount();
        if (e.getSeries() != null) {
            Instant seen = e.getSeries().getLastObservedTime() == null ? null
                    : time(e.getSeries().getLastObservedTime().getTime(), "series.lastObservedTime");
            last = seen != null ? seen : last;
            count = e.getSeries().getCount() == null ? count : e.getSeries().getCount();
        }
        return build(meta, observedAt, about == null ? null : about.getKind(), about == null ? null : about.getNamespace(),
                about == null ? null : about.getName(), about == null ? null : about.getUid(), e.getReason(), e.getType(),
                e.getMessage(), e.getSource() != null && e.getSource().getComponent() != null
                        ? e.getSource().getComponent() : e.getReportingComponent(),
                e.getSource() != null && e.getSource().getHost() != null ? e.getSource().getHost() : e.getReportingInstance(),
                first, last, count);
    }

    static EventFact eventsV1(io.fabric8.kubernetes.api.model.events.v1.Event e, Instant observedAt) {
        ObjectMeta meta = meta(e.getMetadata());
        ObjectReference about = e.getRegarding();
        Instant first = e.getEventTime() == null ? null : time(e.getEventTime().getTime(), "eventTime");
        if (first == null) {
            first = time(e.getDeprecatedFirstTimestamp(), "deprecatedFirstTimestamp");
        }
        Instant last = time(e.getDeprecatedLastTimestamp(), "deprecatedLastTimestamp");
        int count = e.getDeprecatedCount() == null ? 1 : e.getDeprecatedCount();
        if (e.getSeries() != null) {
            Instant seen = e.getSeries().getLastObservedTime() == null ? null
                    : time(e.getSeries().getLastObservedTime().getTime(), "series.lastObservedTime");
            last = seen != null ? seen : last;
            count = e.getSeries().getCount() == null ? count : e.getSeries().getCount();
        }
        return build(meta, observedAt, about == null ? null : about.getKind(), about == null ? null : about.getNamespace(),
                about == null ? null : about.getName(), about == null ? null : about.getUid(), e.getReason(), e.getType(),
                e.getNote(), e.getReportingController(), e.getReportingInstance(), first, last, count);
    }

    private static EventFact build(ObjectMeta meta, Instant observedAt, String kind, String namespace, String name,
                                   String uid, String reason, String type, String message, String component,
                                   String host, Instant first, Instant last, int count) {
        if (kind == null || name == null) {
            throw new Skip("event without its object");
        }
        if (!SUBJECTS.contains(kind)) {
            throw new Skip("event about a " + kind + " not governed");
        }
        // The API server keeps an event in its object's namespace, and a cluster-scoped object's in default: a tenant
        // who may create events in its namespace can then speak only of its own objects, never of a node or queue.
        String own = meta.getNamespace() == null || meta.getNamespace().isEmpty() ? "default" : meta.getNamespace();
        String home = CLUSTER_SCOPED.contains(kind) ? "default" : namespace == null ? own : namespace;
        if (!own.equals(home)) {
            throw new Skip("event in another namespace than its object's");
        }
        if (reason == null || reason.isBlank()) {
            throw new Skip("event without reason");
        }
        if (!"Warning".equals(type) && !DECISIONS.contains(reason)) {
            throw new Skip("routine event");
        }
        Instant at = first != null ? first : last;
        if (at == null) {
            throw new Skip("event without a time");
        }
        return new EventFact(meta.getUid(), meta.getNamespace(), meta.getName(), meta.getResourceVersion(), observedAt,
                kind, namespace, name, uid, reason, type, message, component, host, at, last != null ? last : at,
                Math.max(1, count));
    }

    private static ObjectMeta meta(ObjectMeta meta) {
        if (meta == null) {
            throw new Skip("no metadata");
        }
        if (meta.getUid() == null || meta.getUid().isBlank()) {
            throw new Skip("no metadata.uid");
        }
        if (meta.getResourceVersion() == null || meta.getResourceVersion().isBlank()) {
            throw new Skip("no metadata.resourceVersion");
        }
        return meta;
    }

    private static Instant time(String value, String field) {
        return Json.parseTime(value, field);
    }
}
