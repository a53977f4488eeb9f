package io.gpumeter.ledger.triage.domain;

import io.gpumeter.common.fact.ContainerStatusFact;
import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.common.triage.Confidence;
import io.gpumeter.common.triage.PendingReason;
import io.gpumeter.common.triage.Symptom;
import io.gpumeter.common.triage.Triage.Evidence;
import io.gpumeter.ledger.governance.domain.PodTrail;
import io.gpumeter.ledger.governance.domain.QueueState;
import io.gpumeter.ledger.triage.domain.Leads.Lead;

import java.util.ArrayList;
import java.util.List;

/**
 * The tree for one pod that is not waiting (the PENDING branch is its own): a pod that asks for no GPU has nothing
 * to triage; else the incident that leads ({@link Leads}) decides the branch — FAILED, MIG, GPU_INVISIBLE, OOM —
 * else its over-use (OVERUSE), else it is healthy (NONE) and the answer says what was looked at.
 */
public final class PodDiagnosis {

    private final OomBranch oom;

    public PodDiagnosis(OomBranch oom) {
        this.oom = oom;
    }

    /** The lead the second read follows: which card, node and instant its extras are read for; null without one. */
    public static Lead lead(PodCase c) {
        List<Lead> leads = Leads.of(c);
        return leads.isEmpty() ? null : leads.get(0);
    }

    public Diagnosis diagnose(PodCase c) {
        List<String> nodes = List.copyOf(c.nodes());
        if (!c.requestsGpu()) {
            return Diagnosis.none(nodes, List.of(c.key() + " requests no GPU (no nvidia.com/gpu, HAMi, MIG or ResourceClaim"
                    + " resource in any version) and held no unit of a card: there is nothing to triage on the GPU side"),
                    List.of(state(c)));
        }
        PodStatusFact latest = c.latest();
        if (latest.scheduledAt() == null && latest.nodeName() == null && "Pending".equals(latest.phase())) {
            return waiting(c);
        }
        List<Lead> leads = Leads.of(c);
        if (!leads.isEmpty()) {
            Lead lead = leads.get(0);
            List<Lead> others = leads.subList(1, leads.size());
            return switch (lead.branch()) {
                case CARD, POD -> FailedBranch.diagnose(c, lead, others);
                case OOM -> oom.diagnose(c, lead, others);
                case INVISIBLE -> InvisibleBranch.diagnose(c, lead, others);
                case MIG -> MigBranch.diagnose(lead.incident(), c.at(), c.extras().stack(),
                        FailedBranch.ruledOut(lead, others), c.cardsDuring(lead.incident().startedAt(), c.at()));
            };
        }
        Diagnosis overuse = OveruseBranch.diagnose(c);
        if (overuse != null) {
            return overuse;
        }
        List<String> cards = c.cardsDuring(c.at().minus(Leads.RECENT), c.at());
        List<String> checked = new ArrayList<>();
        checked.add("incidents of " + c.key() + " (container states, events, log signals) in the day before " + c.at() + ": none");
        checked.add("Xids, lost cards and memory health of " + (cards.isEmpty() ? "its cards (none named)" : String.join(", ", cards))
                + " and MIG layouts of " + (nodes.isEmpty() ? "its node (none)" : String.join(", ", nodes)) + " then: none");
        checked.add("over-use, bypass and unverified HAMi grants of " + c.key() + " then: none");
        return Diagnosis.none(nodes, checked, List.of(state(c)));
    }

    /**
     * A pod that has not been scheduled, when the PENDING branch gave no answer: the class its trail gives the wait,
     * at low confidence, saying so.
     */
    static Diagnosis waiting(PodCase c) {
        QueueState state = new PodTrail(c.versions(), c.events()).state();
        PendingReason reason = state.reasonClass() == null ? PendingReason.OTHER : state.reasonClass();
        List<Evidence> evidence = List.of(new Evidence(state.waitingSince(), "pod-status", c.key() + " waits since "
                + state.waitingSince() + (state.reason() == null ? "" : ": " + state.reason())
                + (state.message() == null ? "" : " (" + state.message() + ")"), Commands.describePod(c.namespace(), c.name())));
        return new Diagnosis(Symptom.PENDING, reason.label(), reason.rootCause(), Confidence.LOW, state.waitingSince(),
                List.of(), List.of(), "POD", null, evidence, List.of(),
                List.of("the wait is classed from the scheduler's newest refusal alone"), List.of());
    }

    /** The pod's state at the instant, as its newest version says. */
    static Evidence state(PodCase c) {
        PodStatusFact v = c.latest();
        StringBuilder fact = new StringBuilder(c.key()).append(" is ").append(v.phase() == null ? "of unknown phase" : v.phase());
        if (v.nodeName() != null) {
            fact.append(" on node ").append(v.nodeName());
        }
        for (ContainerStatusFact s : v.containers()) {
            if (!s.init()) {
                fact.append(", container ").append(s.name()).append(' ')
                        .append(s.state() == null ? "without state" : s.state().state())
                        .append(s.restartCount() > 0 ? " (" + s.restartCount() + " restarts)" : "");
            }
        }
        if (!v.gpuResources().isEmpty()) {
            fact.append(", asking ").append(new java.util.TreeMap<>(v.gpuResources()));
        }
        return new Evidence(v.observedAt(), "pod-status", fact.toString(), Commands.describePod(c.namespace(), c.name()));
    }
}
