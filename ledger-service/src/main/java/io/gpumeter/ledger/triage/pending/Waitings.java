package io.gpumeter.ledger.triage.pending;

import io.gpumeter.common.fact.ObjectCondition;
import io.gpumeter.common.fact.PodGroupFact;
import io.gpumeter.common.fact.PodSetRequest;
import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.common.fact.WorkloadFact;
import io.gpumeter.common.triage.PendingReason;
import io.gpumeter.ledger.governance.domain.QueueSource;
import io.gpumeter.ledger.governance.domain.QueueState;
import io.gpumeter.ledger.governance.repository.QueueBookRepository.StoredItem;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What waits, as the tree reads it, made from a trail's state (a triage of one subject) or from the queue book's
 * stored item (the reads of what waits now), with the object's newest version beside it.
 */
public final class Waitings {

    private Waitings() {
    }

    /** A pod, from its trail's state, its newest version and when its refusal was said. */
    public static Waiting ofPod(QueueState s, PodStatusFact latest, Instant toldAt) {
        return pod(s.state().name(), s.waitingSince(), s.reasonClass(), s.reason(), s.message(), toldAt,
                s.keys().scheduler(), latest, s.keys().localQueue(), s.keys().namespace(), s.keys().name());
    }

    /** A pod the queue book holds as waiting, with its newest version (null when it could not be read). */
    public static Waiting ofPod(StoredItem i, PodStatusFact latest) {
        return pod(i.state(), i.waitingSince(), reason(i.reasonClass()), i.reason(), i.message(), null, i.scheduler(),
                latest, i.localQueue(), i.namespace(), i.name());
    }

    private static Waiting pod(String state, Instant since, PendingReason told, String reason, String message,
                               Instant toldAt, String scheduler, PodStatusFact latest, String localQueue,
                               String namespace, String name) {
        boolean known = latest != null && (latest.placement() != null || latest.scheduling() != null);
        return new Waiting(QueueSource.POD, namespace, name, state, since, told,
                reason, message, toldAt, scheduler, latest == null ? Map.of() : latest.gpuResources(),
                latest == null ? null : latest.placement(), known, podReason(latest), latest == null ? null : latest.message(),
                null, localQueue, null, null);
    }

    /** A kubelet's refusal of a pod it was placed on, which leaves the pod never started. */
    private static String podReason(PodStatusFact latest) {
        if (latest == null || latest.reason() == null) {
            return null;
        }
        return Waiting.KUBELET_REFUSALS.contains(latest.reason()) ? latest.reason() : null;
    }

    /** A Workload, from its trail's state and newest version, with what Kueue says of its queue. */
    public static Waiting ofWorkload(QueueState s, WorkloadFact latest, KueueQueue kueue) {
        return workload(s.state().name(), s.waitingSince(), s.reasonClass(), s.reason(), s.message(), latest,
                s.keys().clusterQueue(), s.keys().localQueue(), s.keys().namespace(), s.keys().name(), kueue);
    }

    public static Waiting ofWorkload(StoredItem i, WorkloadFact latest, KueueQueue kueue) {
        return workload(i.state(), i.waitingSince(), reason(i.reasonClass()), i.reason(), i.message(), latest,
                i.clusterQueue(), i.localQueue(), i.namespace(), i.name(), kueue);
    }

    private static Waiting workload(String state, Instant since, PendingReason told, String reason, String message,
                                    WorkloadFact latest, String clusterQueue, String localQueue, String namespace,
                                    String name, KueueQueue kueue) {
        Instant toldAt = null;
        String scheduler = null;
        if (latest != null) {
            for (ObjectCondition c : latest.conditions()) {
                if ("QuotaReserved".equals(c.type()) || "Evicted".equals(c.type()) && c.isTrue()) {
                    toldAt = c.lastTransitionTime() != null ? c.lastTransitionTime() : toldAt;
                }
            }
            scheduler = latest.podSets().stream().map(PodSetRequest::schedulerName).filter(n -> n != null).findFirst()
                    .orElse(null);
        }
        return new Waiting(QueueSource.KUEUE, namespace, name, state, since, told,
                reason, message, toldAt, scheduler, latest == null ? Map.of() : perPod(latest), null, false, null, null,
                clusterQueue, localQueue, null, kueue);
    }

    /** A PodGroup, from its trail's state and newest version. */
    public static Waiting ofPodGroup(QueueState s, PodGroupFact latest) {
        Instant toldAt = null;
        if (latest != null) {
            for (ObjectCondition c : latest.conditions()) {
                if ("Unschedulable".equals(c.type()) && c.isTrue()) {
                    toldAt = c.lastTransitionTime();
                }
            }
        }
        return podGroup(s.state().name(), s.waitingSince(), s.reasonClass(), s.reason(), s.message(), toldAt,
                s.keys().volcanoQueue(), s.keys().namespace(), s.keys().name());
    }

    public static Waiting ofPodGroup(StoredItem i) {
        return podGroup(i.state(), i.waitingSince(), reason(i.reasonClass()), i.reason(), i.message(), null,
                i.volcanoQueue(), i.namespace(), i.name());
    }

    private static Waiting podGroup(String state, Instant since, PendingReason told, String reason, String message,
                                    Instant toldAt, String volcanoQueue, String namespace, String name) {
        return new Waiting(QueueSource.VOLCANO, namespace, name, state, since, told,
                reason, message, toldAt, "volcano", Map.of(), null, false, null, null, null, null, volcanoQueue, null);
    }

    /** The GPU resources one pod of the Workload's first pod set that asks for any asks for. */
    static Map<String, Long> perPod(WorkloadFact w) {
        for (PodSetRequest set : w.podSets()) {
            Map<String, Long> asks = new LinkedHashMap<>();
            set.requests().forEach((r, v) -> {
                if (r.startsWith("nvidia.com/") && v != null) {
                    asks.put(r, v.longValue());
                }
            });
            if (!asks.isEmpty()) {
                return asks;
            }
        }
        return Map.of();
    }

    /** What the Workload asks for in all: each pod set's count times its per-pod requests. */
    public static Map<String, BigDecimal> total(WorkloadFact w) {
        Map<String, BigDecimal> out = new LinkedHashMap<>();
        if (w == null) {
            return out;
        }
        for (PodSetRequest set : w.podSets()) {
            set.requests().forEach((r, v) -> {
                if (v != null) {
                    out.merge(r, v.multiply(BigDecimal.valueOf(set.count())), BigDecimal::add);
                }
            });
        }
        return out;
    }

    /** The PendingReason a stored label names; OTHER for none. */
    static PendingReason reason(String label) {
        PendingReason named = PendingReason.ofLabel(label);
        return named == null ? PendingReason.OTHER : named;
    }
}
