package io.gpumeter.ledger.triage.pending;

import io.gpumeter.common.triage.Confidence;
import io.gpumeter.common.triage.FailureCause;
import io.gpumeter.common.triage.PendingReason;
import io.gpumeter.common.triage.RootCauseClass;
import io.gpumeter.common.triage.Triage;
import io.gpumeter.ledger.governance.domain.QueueSource;
import io.gpumeter.ledger.triage.domain.Commands;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * What one walk down the PENDING branch has found so far, for one wait against the nodes as they stood: the facts in
 * the order they were read, the causes ruled out, what was looked at and what could not be, the nodes the cause lies
 * on and the pods the evidence names. Each branch adds to it and ends it with the cause it decided.
 */
final class Findings {

    final Waiting w;
    final Fleet fleet;
    final List<Triage.Evidence> evidence = new ArrayList<>();
    final List<Triage.Alternative> alternatives = new ArrayList<>();
    final List<String> checked = new ArrayList<>();
    final List<String> nodes = new ArrayList<>();
    final List<Triage.Named> named = new ArrayList<>();

    Findings(Waiting w, Fleet fleet) {
        this.w = w;
        this.fleet = fleet;
    }

    /** What was said about it, as the first fact. */
    void said() {
        if (w.message() == null && w.reason() == null) {
            String who = switch (w.source()) {
                case POD -> "the scheduler has written no refusal of it (no FailedScheduling event, no PodScheduled"
                        + " condition)";
                case KUEUE -> "Kueue has written nothing of it";
                case VOLCANO -> "Volcano has written nothing of it";
            };
            checked.add(who);
            return;
        }
        String source;
        String command;
        if (w.source() == QueueSource.POD) {
            source = "FailedScheduling".equals(w.reason()) ? "event" : "pod-status";
            command = "FailedScheduling".equals(w.reason()) ? Commands.podEvents(w.namespace(), w.name())
                    : Commands.describePod(w.namespace(), w.name());
        } else if (w.source() == QueueSource.KUEUE) {
            source = "Pending".equals(w.reason()) ? "event" : "workload";
            command = WaitCommands.workload(w.namespace(), w.name());
        } else {
            source = "pod-group";
            command = WaitCommands.podGroup(w.namespace(), w.name());
        }
        String fact = (w.reason() == null ? "" : w.reason()) + (w.message() == null ? "" : (w.reason() == null ? "" : ": ")
                + w.message());
        if (evidence.stream().noneMatch(e -> e.fact().equals(fact))) {
            evidence.add(0, new Triage.Evidence(w.toldAt(), source, fact, command));
        }
    }

    /** The wait class decided, how sure, and all that was found on the way. */
    WaitDiagnosis decided(PendingReason reason, Confidence confidence) {
        if (reason == PendingReason.OTHER && checked.stream().noneMatch(c -> c.contains("could not")
                || c.contains("no ") || c.contains("nothing"))) {
            checked.add("no fact the ledger holds names a cause: the refusal's text is not one the tree knows");
        }
        RootCauseClass layer = reason.rootCause();
        return new WaitDiagnosis(reason.label(), reason, layer, confidence, PendingTree.scope(reason), nodes, evidence,
                alternatives, checked, named);
    }

    /** A wait whose cause is a failure's (the kubelet's refusal), not a wait class. */
    WaitDiagnosis decided(FailureCause cause, Confidence confidence, String scope) {
        return new WaitDiagnosis(cause.label(), null, cause.rootCause(), confidence, scope, nodes, evidence,
                alternatives, checked, named);
    }

    /** The nodes by name, the first few of them and how many more. */
    static String names(List<NodeAt> list) {
        String shown = list.stream().limit(PendingTree.NODES_SHOWN).map(NodeAt::name).collect(Collectors.joining(", "));
        return list.size() > PendingTree.NODES_SHOWN ? shown + " and " + (list.size() - PendingTree.NODES_SHOWN) + " more" : shown;
    }

    /** A quantity as a person writes it: 4, 0.5. */
    static String plain(BigDecimal value) {
        return value == null ? "0" : value.stripTrailingZeros().toPlainString();
    }
}
