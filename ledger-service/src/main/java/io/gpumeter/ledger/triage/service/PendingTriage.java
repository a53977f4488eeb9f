package io.gpumeter.ledger.triage.service;

import io.gpumeter.common.triage.Triage;
import io.gpumeter.common.triage.TriageRequest;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;

/**
 * The PENDING branch of the diagnosis tree for a pod, Kueue Workload or PodGroup that waits at {@code at}.
 */
@ApplicationScoped
public class PendingTriage {

    /**
     * The PENDING diagnosis of the subject, or a null item when it was not waiting at {@code at}. The answer's
     * {@code changes} are left empty (the caller adds the change book's entries for every symptom alike).
     */
    public Uni<Triage> diagnose(TriageRequest request, Instant at) {
        return Uni.createFrom().nullItem();
    }
}
