package io.gpumeter.collector.governance;

import io.gpumeter.collector.client.LedgerClient;
import io.gpumeter.common.fact.GovernanceBatch;
import io.gpumeter.common.fact.IngestResult;
import io.gpumeter.common.problem.ApiProblem;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.faulttolerance.exceptions.FaultToleranceException;

/** Sends one request's governance facts, turning an unreachable ledger into a 503 the sender can act on. */
@ApplicationScoped
public class GovernanceDelivery {

    private final LedgerClient ledger;

    public GovernanceDelivery(LedgerClient ledger) {
        this.ledger = ledger;
    }

    /**
     * Delivers the batch; nothing to send is an empty result.
     *
     * @param stored what the request already stored elsewhere, named in the 503 so the sender knows a resend is safe
     */
    public IngestResult deliver(GovernanceBatch batch, String stored) {
        if (batch.size() == 0) {
            return new IngestResult(0, 0);
        }
        try {
            return ledger.deliver(batch);
        } catch (ApiProblem e) {
            throw e;
        } catch (FaultToleranceException | jakarta.ws.rs.ProcessingException | jakarta.ws.rs.WebApplicationException e) {
            throw ApiProblem.unavailable("the ledger is unreachable or failing; " + stored
                    + "the governance facts of this request are not stored; send it again (facts already stored are not stored twice)");
        }
    }
}
