package io.gpumeter.slo.service;

import io.gpumeter.slo.client.LedgerClient;
import io.gpumeter.slo.client.SchedulingDecision;
import io.gpumeter.slo.domain.AttainmentBreakdown.Queue;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The queue each pod went through, from its scheduling decision in the ledger. A pod keeps its queue for its whole
 * life, so each pod costs one read however many minutes it served.
 */
@ApplicationScoped
public class PodQueues {

    private final LedgerClient ledger;

    public PodQueues(LedgerClient ledger) {
        this.ledger = ledger;
    }

    /**
     * @param podKeys     pods as "namespace/pod"
     * @param concurrency pods asked about at once
     * @return each pod's queue; a failed read fails the whole answer
     */
    public Uni<Map<String, Queue>> of(Collection<String> podKeys, int concurrency) {
        if (podKeys.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return Multi.createFrom().iterable(podKeys)
                .onItem().transformToUni(key -> ofPod(key).map(q -> Map.entry(key, q)))
                .merge(concurrency)
                .collect().in(HashMap<String, Queue>::new, (map, e) -> map.put(e.getKey(), e.getValue()));
    }

    private Uni<Queue> ofPod(String podKey) {
        int slash = podKey.indexOf('/');
        String namespace = podKey.substring(0, slash);
        return ledger.podDecision(namespace, podKey.substring(slash + 1)).map(d -> queue(namespace, d));
    }

    private static Queue queue(String namespace, Optional<SchedulingDecision> decision) {
        if (decision.isEmpty()) {
            return Queue.NOT_KNOWN;
        }
        SchedulingDecision.Queue q = decision.get().queue();
        return q == null ? Queue.NO_QUEUE : Queue.of(namespace, q.clusterQueue(), q.localQueue(), q.volcanoQueue());
    }
}
