package io.gpumeter.ledger.triage.pending;

import io.gpumeter.common.triage.Confidence;
import io.gpumeter.common.triage.PendingReason;
import io.gpumeter.common.triage.RootCauseClass;
import io.gpumeter.common.triage.Triage;

import java.util.List;

/**
 * The cause of one wait, with the facts that decided it: what the reads of waits show as its class, and what a triage
 * of it answers.
 *
 * @param cause       the cause's label, a {@link PendingReason}'s or (a kubelet's refusal) a
 *                    {@link io.gpumeter.common.triage.FailureCause}'s
 * @param reason      the PendingReason, null when the cause is a FailureCause
 * @param scope       POD, NODE, QUEUE or CLUSTER: how far the cause reaches
 * @param nodes       the nodes the cause lies on (those not reporting, those full, those that refuse it)
 * @param checked     what was read, and what could not be
 * @param named       the pods and workloads the evidence names besides the one that waits (a device plugin's pod, the
 *                    Workload a gated pod waits on), their tenants left to the caller
 */
public record WaitDiagnosis(String cause, PendingReason reason, RootCauseClass layer, Confidence confidence,
                            String scope, List<String> nodes, List<Triage.Evidence> evidence,
                            List<Triage.Alternative> alternatives, List<String> checked, List<Triage.Named> named) {

    public WaitDiagnosis {
        named = named == null ? List.of() : List.copyOf(named);
        nodes = nodes == null ? List.of() : List.copyOf(nodes);
        evidence = evidence == null ? List.of() : List.copyOf(evidence);
        alternatives = alternatives == null ? List.of() : List.copyOf(alternatives);
        checked = checked == null ? List.of() : List.copyOf(checked);
    }

    /** The class the reads of waits show: the PendingReason, or (a kubelet's refusal) none of them. */
    public String reasonClass() {
        return reason == null ? null : reason.label();
    }
}
