package io.gpumeter.ledger.triage.pending;

import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.common.fact.WorkloadFact;
import io.gpumeter.ledger.governance.domain.QueueSource;
import io.gpumeter.ledger.governance.repository.QueueBookRepository.StoredItem;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Judges every waiting item of the queue book from what {@link WaitJudge} read for all of them at once: the Workloads
 * first, so that a pod a gate holds back is judged by its Workload's wait, then the pods against their cluster's fleet
 * and the PodGroups by what Volcano said.
 */
final class StoredWaits {

    private StoredWaits() {
    }

    /** Each item's cause, keyed {@link WaitJudge#key}. */
    static Map<String, WaitDiagnosis> judge(Instant at, List<StoredItem> items, Map<String, Fleet> fleets,
                                            Map<String, PodStatusFact> views, Map<String, WorkloadFact> workloads,
                                            KueueQueues queues) {
        Map<String, WaitDiagnosis> out = new HashMap<>();
        Map<String, Map.Entry<String, WaitDiagnosis>> byOwner = new HashMap<>();
        for (StoredItem i : items) {
            if (i.source() != QueueSource.KUEUE) {
                continue;
            }
            WorkloadFact latest = workloads.get(i.cluster() + "|" + i.uid());
            Waiting w = Waitings.ofWorkload(i, latest, queues.of(i.cluster(), i.namespace(), i.name(), i.clusterQueue(), latest));
            WaitDiagnosis d = PendingTree.diagnose(w, Fleet.empty(i.cluster(), at));
            out.put(WaitJudge.key(i.cluster(), i.source(), i.uid()), d);
            if (latest != null && latest.owner() != null) {
                byOwner.put(owner(i.cluster(), i.namespace(), latest.owner().kind(), latest.owner().name()), Map.entry(i.name(), d));
            }
        }
        for (StoredItem i : items) {
            if (i.source() == QueueSource.KUEUE) {
                continue;
            }
            WaitDiagnosis d;
            if (i.source() == QueueSource.POD) {
                PodStatusFact view = views.get(i.cluster() + "|" + i.uid());
                Waiting w = Waitings.ofPod(i, view);
                Map.Entry<String, WaitDiagnosis> workload = w.gated() && view != null && view.owner() != null
                        ? byOwner.get(owner(i.cluster(), i.namespace(), view.owner().kind(), view.owner().name())) : null;
                d = workload != null ? PendingTree.heldByGate(workload.getValue(), w, workload.getKey())
                        : PendingTree.diagnose(w, WaitJudge.fleetOf(fleets, i.cluster(), at));
            } else {
                d = PendingTree.diagnose(Waitings.ofPodGroup(i), Fleet.empty(i.cluster(), at));
            }
            out.put(WaitJudge.key(i.cluster(), i.source(), i.uid()), d);
        }
        return out;
    }

    private static String owner(String cluster, String namespace, String kind, String name) {
        return cluster + "|" + namespace + "|" + kind + "|" + name;
    }
}
