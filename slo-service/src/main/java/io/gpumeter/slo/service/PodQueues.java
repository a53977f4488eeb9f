package io.gpumeter.slo.service;

import io.gpumeter.slo.client.LedgerClient;
import io.gpumeter.slo.client.PodQueue;
import io.gpumeter.slo.domain.AttainmentBreakdown.Queue;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * The queue each pod went through, from the ledger's scheduling records. A pod keeps its queue for its whole life,
 * so a set of pods costs one read however many pods and minutes it has.
 */
@ApplicationScoped
public class PodQueues {

    private final LedgerClient ledger;

    public PodQueues(LedgerClient ledger) {
        this.ledger = ledger;
    }

    /**
     * @param podKeys pods as "namespace/pod"
     * @return each pod's queue; a failed read fails the whole answer
     */
    public Uni<Map<String, Queue>> of(Collection<String> podKeys) {
        if (podKeys.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return ledger.podQueues(podKeys).map(answers -> {
            Map<String, Queue> out = new HashMap<>();
            for (PodQueue q : answers) {
                if (q != null && q.namespace() != null && q.pod() != null) {
                    out.put(q.namespace() + "/" + q.pod(), queue(q));
                }
            }
            return out;
        });
    }

    private static Queue queue(PodQueue answer) {
        if (!answer.known()) {
            return Queue.NOT_KNOWN;
        }
        PodQueue.Queue q = answer.queue();
        return q == null ? Queue.NO_QUEUE : Queue.of(answer.namespace(), q.clusterQueue(), q.localQueue(), q.volcanoQueue());
    }
}
