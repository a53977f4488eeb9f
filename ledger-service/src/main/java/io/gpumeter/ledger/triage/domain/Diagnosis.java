package io.gpumeter.ledger.triage.domain;

import io.gpumeter.common.triage.Confidence;
import io.gpumeter.common.triage.RootCauseClass;
import io.gpumeter.common.triage.Symptom;
import io.gpumeter.common.triage.Triage.Alternative;
import io.gpumeter.common.triage.Triage.Evidence;
import io.gpumeter.common.triage.Triage.Named;
import io.gpumeter.ledger.governance.domain.Incident;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What a branch of the tree decided for one subject, before the answer is composed: the cause with its layer and
 * confidence, the facts that decided it, what it ruled out, what it looked at, and where it happened.
 *
 * @param since  when the cause began (the lead incident's start, the episode's); null for NONE
 * @param nodes  the nodes it happened on, whose changes and pods the answer reads
 * @param cards  the cards it happened on (UUIDs), for the pods alike
 * @param level  POD, NODE, QUEUE or CLUSTER as far as the branch can tell; the service widens NODE to CLUSTER when
 *               other nodes show the same cause then
 * @param lead   the incident the branch followed, if any, whose owner's and node's history the recurrence counts
 * @param named  the pods the evidence names besides the subject, with their tenants
 */
public record Diagnosis(Symptom symptom, String cause, RootCauseClass layer, Confidence confidence, Instant since,
                        List<String> nodes, List<String> cards, String level, Incident lead, List<Evidence> evidence,
                        List<Alternative> alternatives, List<String> checked, List<Named> named) {

    public Diagnosis {
        nodes = nodes == null ? List.of() : List.copyOf(nodes);
        cards = cards == null ? List.of() : List.copyOf(cards);
        evidence = evidence == null ? List.of() : List.copyOf(evidence);
        alternatives = alternatives == null ? List.of() : List.copyOf(alternatives);
        checked = checked == null ? List.of() : List.copyOf(checked);
        named = named == null ? List.of() : List.copyOf(named);
    }

    /** A healthy subject: nothing found, and what was looked at. */
    public static Diagnosis none(List<String> nodes, List<String> checked, List<Evidence> evidence) {
        return new Diagnosis(Symptom.NONE, null, null, Confidence.HIGH, null, nodes, List.of(), "POD", null, evidence,
                List.of(), checked, List.of());
    }

    /** This diagnosis with more alternatives and checks after its own. */
    public Diagnosis with(List<Alternative> moreAlternatives, List<String> moreChecked) {
        List<Alternative> a = new ArrayList<>(alternatives);
        a.addAll(moreAlternatives);
        List<String> c = new ArrayList<>(checked);
        c.addAll(moreChecked);
        return new Diagnosis(symptom, cause, layer, confidence, since, nodes, cards, level, lead, evidence, a, c, named);
    }
}
