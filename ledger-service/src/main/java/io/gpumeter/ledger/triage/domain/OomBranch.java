package io.gpumeter.ledger.triage.domain;

import io.gpumeter.common.triage.FailureCause;
import io.gpumeter.common.triage.Triage.Alternative;
import io.gpumeter.common.triage.Triage.Evidence;
import io.gpumeter.ledger.governance.domain.Incident;
import io.gpumeter.ledger.triage.domain.Leads.Lead;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * OOM: whose memory ran out. A container {@code OOMKilled} ran out of host memory: the node's kernel OOM killer when
 * the node reported an OOM kill then ({@code NODE_OOM}), else its own limit. A CUDA out-of-memory ran out of the
 * card's: at the fullest minute just before it, a HAMi share above its grant means the grants were not enforced
 * ({@code ISOLATION_NOT_ENFORCED}); its own use at its grant is its own growth ({@code OOM}); the card full while its
 * own use stayed under its grant is its neighbours' pressure ({@code NEIGHBOUR_MEMORY_PRESSURE}, naming them and
 * their memory then); anything else, or a fact missing, stays {@code CUDA_OOM} with what could not be read. The host's
 * side is {@link HostOom}'s, the card's {@link CardOom}'s.
 *
 * @param tolerance          how far above its grant a share's use is still within it (the violations' tolerance)
 * @param oomEventTolerance  how far a node's OOM event may lie from the container's end and still be that kill
 */
public record OomBranch(double tolerance, Duration oomEventTolerance) {

    public Diagnosis diagnose(PodCase c, Lead lead, List<Lead> others) {
        Incident i = lead.incident();
        String node = i.node() != null ? i.node() : c.nodeAt(i.startedAt());
        List<Evidence> evidence = new ArrayList<>();
        evidence.add(IncidentEvidence.of(i, c.at()));
        List<Alternative> alternatives = new ArrayList<>(FailedBranch.ruledOut(lead, others));
        if (FailureCause.OOM.label().equals(i.cause())) {
            return HostOom.diagnose(c, i, node, evidence, alternatives, oomEventTolerance);
        }
        return CardOom.diagnose(c, i, node, evidence, alternatives, tolerance);
    }
}
