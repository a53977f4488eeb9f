package io.gpumeter.alert.review;

import io.gpumeter.common.client.Answers;
import io.gpumeter.common.triage.InputBundle;
import io.gpumeter.common.triage.Triage;
import io.gpumeter.common.triage.TriageRequest;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.rest.client.inject.RestClient;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Calls ledger-service for reviews with a timeout, retries and a circuit breaker. A 404 is an answer: an incident
 * or a subject the ledger does not know, or a read it does not offer yet.
 */
@ApplicationScoped
@Timeout
@Retry
@CircuitBreaker
public class ReviewLedger {

    private final ReviewLedgerRestClient ledger;

    public ReviewLedger(@RestClient ReviewLedgerRestClient ledger) {
        this.ledger = ledger;
    }

    /** The incident with this id, or empty when the ledger knows none. */
    public Uni<Optional<IncidentRef>> incident(String id) {
        return ledger.incident(id).map(Optional::ofNullable)
                .onFailure(Answers::notFound).recoverWithItem(Optional.empty());
    }

    /** The incidents that started in [from, to); empty while the ledger has no incidents read. */
    public Uni<Optional<List<IncidentRef>>> incidents(Instant from, Instant to) {
        return ledger.incidents(from.toString(), to.toString())
                .map(rows -> Optional.of(rows == null ? List.<IncidentRef>of() : rows))
                .onFailure(Answers::notFound).recoverWithItem(Optional.empty());
    }

    /** Every incident still open, whatever its start; empty while the ledger has no incidents read. */
    public Uni<Optional<List<IncidentRef>>> openIncidents() {
        return ledger.openIncidents(true)
                .map(rows -> Optional.of(rows == null ? List.<IncidentRef>of() : rows))
                .onFailure(Answers::notFound).recoverWithItem(Optional.empty());
    }

    /** The facts the ledger's diagnosis of the subject reads, or empty when it offers no such read. */
    public Uni<Optional<InputBundle>> inputs(TriageRequest r) {
        return ledger.inputs(r.namespace(), r.nameIf(Triage.SubjectKind.POD), r.nameIf(Triage.SubjectKind.WORKLOAD),
                        r.nameIf(Triage.SubjectKind.POD_GROUP), r.nameIf(Triage.SubjectKind.NODE), r.cluster(),
                        r.at() == null ? null : r.at().toString())
                .map(Optional::ofNullable).onFailure(Answers::notFound).recoverWithItem(Optional.empty());
    }
}
