package io.gpumeter.ledger.triage.domain;

import io.gpumeter.common.triage.Confidence;
import io.gpumeter.common.triage.FailureCause;
import io.gpumeter.common.triage.Symptom;
import io.gpumeter.common.triage.Triage.Alternative;
import io.gpumeter.common.triage.Triage.Evidence;
import io.gpumeter.ledger.governance.domain.Incident;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A CUDA out-of-memory: the card's memory ran out. Each card the pod held then is read at its fullest minute just
 * before the OOM ({@link CardAtOom} decides whose memory it was); a MIG instance's memory is its own; a card whose
 * memory was not read, or no card named, leaves it {@code CUDA_OOM} with what could not be read.
 */
final class CardOom {

    /** How far before the OOM the growth is read from. */
    static final Duration BEFORE = Duration.ofMinutes(10);
    /** The minutes just before the OOM whose fullest is "then". */
    static final Duration THEN = Duration.ofMinutes(2);

    private CardOom() {
    }

    static Diagnosis diagnose(PodCase c, Incident i, String node, List<Evidence> evidence, List<Alternative> alternatives,
                              double tolerance) {
        Instant minute = i.startedAt().truncatedTo(ChronoUnit.MINUTES);
        List<String> cards = c.cardsDuring(i.startedAt(), i.startedAt());
        List<String> nodes = node == null ? List.of() : List.of(node);
        if (cards.isEmpty()) {
            return undecided(i, nodes, cards, evidence, alternatives, List.of("no card of " + c.key() + " is named at "
                    + i.startedAt() + " (no allocation names its UUID and no exporter saw the pod on one)"));
        }
        List<String> checked = new ArrayList<>();
        for (String card : cards) {
            Optional<Holding> mine = c.holdings().stream()
                    .filter(h -> card.equals(h.gpuUuid()) && h.covers(i.startedAt())).findFirst();
            if (mine.isPresent() && mine.get().mig()) {
                evidence.add(holdingFact(c.key(), mine.get()));
                alternatives.add(new Alternative(FailureCause.NEIGHBOUR_MEMORY_PRESSURE.label(),
                        "a MIG instance's memory is its own: no neighbour can use it"));
                return new Diagnosis(Symptom.OOM, FailureCause.OOM.label(), FailureCause.OOM.rootCause(), Confidence.MEDIUM,
                        i.startedAt(), nodes, List.of(card), "POD", i, evidence, alternatives,
                        List.of("the MIG instance's own memory series is not read"), List.of());
            }
            CardMemory memory = c.extras().memory().get(card);
            Instant then = memory == null ? null : memory.fullest(minute.minus(THEN), minute);
            if (then == null && memory != null) {
                then = memory.times().stream().filter(t -> !t.isAfter(minute)).reduce((a, b) -> b).orElse(null);
            }
            if (then == null) {
                checked.add("no memory series of " + card + " in the " + BEFORE.toMinutes() + " minutes before "
                        + i.startedAt());
                continue;
            }
            Optional<Diagnosis> decided = CardAtOom.decide(c, i, node, card, memory, then, mine.orElse(null), tolerance,
                    evidence, alternatives, checked);
            if (decided.isPresent()) {
                return decided.get();
            }
        }
        return undecided(i, nodes, cards, evidence, alternatives, checked);
    }

    private static Diagnosis undecided(Incident i, List<String> nodes, List<String> cards, List<Evidence> evidence,
                                       List<Alternative> alternatives, List<String> checked) {
        return new Diagnosis(Symptom.OOM, i.cause(), i.rootCause(), Confidence.LOW, i.startedAt(), nodes, cards, "POD", i,
                evidence, alternatives, checked, List.of());
    }

    private static Evidence holdingFact(String pod, Holding h) {
        return new Evidence(h.since(), "allocation", pod + " held " + h.words() + " of " + h.gpuUuid() + " on node "
                + h.node(), Commands.migInstances(h.node()));
    }
}
