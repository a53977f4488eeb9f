package io.gpumeter.ledger.triage.domain;

import io.gpumeter.common.fact.EventFact;
import io.gpumeter.common.triage.Confidence;
import io.gpumeter.common.triage.FailureCause;
import io.gpumeter.common.triage.Symptom;
import io.gpumeter.common.triage.Triage.Alternative;
import io.gpumeter.common.triage.Triage.Evidence;
import io.gpumeter.ledger.governance.domain.Incident;
import io.gpumeter.ledger.governance.domain.NodeOomIncidents;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A container {@code OOMKilled}: it ran out of host memory, not the card's. The node's kernel OOM killer chose it when
 * the node reported an OOM kill within the tolerance of its end ({@code NODE_OOM}); else it reached its own limit
 * ({@code OOM}).
 */
final class HostOom {

    private HostOom() {
    }

    static Diagnosis diagnose(PodCase c, Incident i, String node, List<Evidence> evidence, List<Alternative> alternatives,
                              Duration oomEventTolerance) {
        Optional<EventFact> kill = c.extras().nodeOomEvents().stream()
                .filter(e -> node != null && node.equals(e.involvedName()) && NodeOomIncidents.REASONS.contains(e.reason()))
                .filter(e -> distance(e, i.startedAt()).compareTo(oomEventTolerance) <= 0)
                .min((a, b) -> distance(a, i.startedAt()).compareTo(distance(b, i.startedAt())));
        alternatives.add(new Alternative(FailureCause.NEIGHBOUR_MEMORY_PRESSURE.label(), "OOMKilled is the container's"
                + " host memory running out, not the card's; no neighbour shares a container's memory limit"));
        List<String> checked = new ArrayList<>(List.of("the node's OOM events (OOMKilling, SystemOOM) within "
                + oomEventTolerance.toSeconds() + " s of " + i.startedAt()));
        if (kill.isPresent()) {
            EventFact e = kill.get();
            evidence.add(new Evidence(e.firstAt(), "event", e.reason() + " on node " + node + ": " + e.message(),
                    Commands.kernelOoms(node)));
            alternatives.add(new Alternative(FailureCause.OOM.label(), "node " + node + " reported " + e.reason() + " at "
                    + e.firstAt() + ": the node ran out of memory, the kernel chose the victim"));
            return new Diagnosis(Symptom.OOM, FailureCause.NODE_OOM.label(), FailureCause.NODE_OOM.rootCause(),
                    Confidence.HIGH, i.startedAt(), List.of(node), List.of(), "NODE", i, evidence, alternatives, checked,
                    List.of());
        }
        alternatives.add(new Alternative(FailureCause.NODE_OOM.label(), "no OOMKilling or SystemOOM event of node "
                + node + " within " + oomEventTolerance.toSeconds() + " s of " + i.startedAt()));
        checked.add("the container's host memory is not metered: its growth to its limit is read from the kill alone");
        return new Diagnosis(Symptom.OOM, FailureCause.OOM.label(), FailureCause.OOM.rootCause(), Confidence.MEDIUM,
                i.startedAt(), node == null ? List.of() : List.of(node), List.of(), "POD", i, evidence, alternatives,
                checked, List.of());
    }

    private static Duration distance(EventFact e, Instant t) {
        Instant first = e.firstAt();
        Instant last = e.lastAt() == null || e.lastAt().isBefore(first) ? first : e.lastAt();
        if (!t.isBefore(first) && !t.isAfter(last)) {
            return Duration.ZERO;
        }
        Duration a = Duration.between(first, t).abs();
        Duration b = Duration.between(last, t).abs();
        return a.compareTo(b) <= 0 ? a : b;
    }
}
