package io.gpumeter.ledger.triage.domain;

import io.gpumeter.common.fact.ContainerState;
import io.gpumeter.common.fact.ContainerStatusFact;
import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.common.triage.Confidence;
import io.gpumeter.common.triage.FailureCause;
import io.gpumeter.common.triage.Symptom;
import io.gpumeter.common.triage.Triage.Alternative;
import io.gpumeter.common.triage.Triage.Evidence;
import io.gpumeter.ledger.governance.domain.Incident;
import io.gpumeter.ledger.triage.domain.Leads.Branch;
import io.gpumeter.ledger.triage.domain.Leads.Lead;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * FAILED: a fault of the pod's card (an Xid of the hardware or driver class, the card lost, its memory waiting for a
 * reset) or of the pod itself (an application Xid, an NCCL hang, an image that cannot be pulled, a crash loop, a
 * sandbox, a container that cannot start or is misconfigured, a topology or device admission refusal). The cause is
 * the lead incident's; what its containers said and what it held are the chain behind it.
 */
public final class FailedBranch {

    private FailedBranch() {
    }

    public static Diagnosis diagnose(PodCase c, Lead lead, List<Lead> others) {
        Incident i = lead.incident();
        List<Evidence> evidence = new ArrayList<>();
        evidence.add(IncidentEvidence.of(i, c.at()));
        List<String> checked = new ArrayList<>();
        List<String> cards = new ArrayList<>();
        Confidence confidence = Confidence.HIGH;
        if (lead.branch() == Branch.CARD || !"pod".equals(i.scope())) {
            Instant to = lead.open() ? c.at() : Leads.end(i);
            for (Holding h : c.holdings()) {
                boolean same = i.gpuUuid() != null ? i.gpuUuid().equals(h.gpuUuid()) : i.node() != null && i.node().equals(h.node());
                if (same && h.overlaps(i.startedAt(), to)) {
                    evidence.add(new Evidence(h.since(), "allocation", c.key() + " held " + h.words()
                            + (h.gpuUuid() == null ? "" : " of " + h.gpuUuid()) + " on node " + h.node() + " from " + h.since()
                            + (h.until() == null ? "" : " to " + h.until()),
                            h.gpuUuid() == null ? Commands.nvidiaSmi(h.node()) : Commands.cardQuery(h.node(), h.gpuUuid())));
                    if (h.gpuUuid() != null && !cards.contains(h.gpuUuid())) {
                        cards.add(h.gpuUuid());
                    }
                }
            }
            if (i.gpuUuid() == null) {
                confidence = Confidence.MEDIUM;
                checked.add("the kernel named the card by its PCI address alone; the pod's card on node " + i.node()
                        + " is not known to be that one");
            } else if (cards.isEmpty() && !"pod".equals(i.scope()) && c.holdings().stream().noneMatch(h -> h.gpuUuid() != null)) {
                confidence = Confidence.MEDIUM;
                checked.add("no allocation names the pod's card: it ran on node " + i.node() + ", where " + i.gpuUuid()
                        + " failed");
            }
        }
        containerFacts(c, i).forEach(evidence::add);
        List<Alternative> alternatives = new ArrayList<>(ruledOut(lead, others));
        if (lead.branch() == Branch.POD && others.stream().noneMatch(o -> o.branch() == Branch.CARD)) {
            List<String> held = c.cardsDuring(i.startedAt().minus(Leads.RECENT), c.at());
            alternatives.add(new Alternative("xid-hardware-driver", "no hardware or driver Xid, lost card or memory-health"
                    + " incident on " + (held.isEmpty() ? "the node it ran on" : String.join(", ", held))
                    + " in the day before " + i.startedAt()));
        }
        if (FailureCause.CRASH_LOOP.label().equals(i.cause())) {
            ContainerState last = lastTermination(c.latest(), IncidentEvidence.container(i));
            if (last != null && !"OOMKilled".equals(last.reason())) {
                alternatives.add(new Alternative(FailureCause.OOM.label(), "its last run ended " + last.reason()
                        + (last.exitCode() == null ? "" : " (exit code " + last.exitCode() + ")") + ", not OOMKilled"));
            }
        }
        String node = i.node() != null ? i.node() : c.nodeAt(i.startedAt());
        String level = lead.branch() == Branch.CARD ? "NODE" : "POD";
        return new Diagnosis(Symptom.FAILED, i.cause(), i.rootCause(), confidence, i.startedAt(),
                node == null ? List.of() : List.of(node), cards, level, i, evidence, alternatives, checked, List.of());
    }

    /** The other incidents that concern the pod, and why the lead explains it rather than they. */
    static List<Alternative> ruledOut(Lead lead, List<Lead> others) {
        List<Alternative> out = new ArrayList<>();
        Incident l = lead.incident();
        for (Lead o : others) {
            Incident i = o.incident();
            if (i == l || i.cause().equals(l.cause()) && i.subject().equals(l.subject())) {
                continue;
            }
            String why;
            if (lead.open() && !o.open()) {
                why = "over at " + Leads.end(i) + "; " + l.cause() + " is still open";
            } else if (i.startedAt().isAfter(l.startedAt()) && lead.branch().ordinal() <= o.branch().ordinal()) {
                why = "began at " + i.startedAt() + ", after " + l.cause() + " at " + l.startedAt() + ": read as its consequence";
            } else {
                why = l.cause() + " (" + l.rootCause().label() + ") lies under it and is read first";
            }
            out.add(new Alternative(i.cause(), why));
        }
        return out;
    }

    /** What the pod's containers said: each container's last termination and its waiting reason at the newest version. */
    static List<Evidence> containerFacts(PodCase c, Incident i) {
        List<Evidence> out = new ArrayList<>();
        if (c.versions().isEmpty()) {
            return out;
        }
        PodStatusFact latest = c.latest();
        String only = IncidentEvidence.container(i);
        for (ContainerStatusFact s : latest.containers()) {
            if (s.init() || only != null && !only.equals(s.name())) {
                continue;
            }
            ContainerState last = lastTermination(latest, s.name());
            if (last != null && last.reason() != null) {
                out.add(new Evidence(last.finishedAt(), "pod-status", "container " + s.name() + " last terminated "
                        + last.reason() + (last.exitCode() == null ? "" : " (exit code " + last.exitCode() + ")")
                        + ", " + s.restartCount() + " restart(s)", Commands.previousLogs(c.namespace(), c.name(), s.name())));
            }
            ContainerState now = s.state();
            if (now != null && ContainerState.WAITING.equals(now.state()) && now.reason() != null) {
                out.add(new Evidence(latest.observedAt(), "pod-status", "container " + s.name() + " waiting: " + now.reason()
                        + (now.message() == null ? "" : " (" + now.message() + ")"), Commands.describePod(c.namespace(), c.name())));
            }
        }
        if (latest.reason() != null) {
            out.add(new Evidence(latest.observedAt(), "pod-status", "pod status " + latest.phase() + ": " + latest.reason()
                    + (latest.message() == null ? "" : " (" + latest.message() + ")"), Commands.describePod(c.namespace(), c.name())));
        }
        return out;
    }

    static ContainerState lastTermination(PodStatusFact v, String container) {
        for (ContainerStatusFact s : v.containers()) {
            if (container != null && !container.equals(s.name())) {
                continue;
            }
            for (ContainerState st : new ContainerState[]{s.state(), s.lastState()}) {
                if (st != null && ContainerState.TERMINATED.equals(st.state())) {
                    return st;
                }
            }
        }
        return null;
    }
}
