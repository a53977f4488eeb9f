package io.gpumeter.slo.triage;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.common.triage.FailureCause;
import io.gpumeter.common.triage.Symptom;
import io.gpumeter.common.triage.Triage;
import io.gpumeter.slo.client.Change;
import io.gpumeter.slo.service.JitterEvidence;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;

/**
 * A slow inference service's triage from the facts slo-service holds: the symptom (a jitter event, a burning SLO),
 * the cause {@link PerformanceCause} decides, the evidence with the command that shows each fact, the causes ruled
 * out and by what, the change book before, how often the same cause struck the service in the week before, and which
 * other services on its cards showed the same cause then. Pure: every fact comes in {@link Inputs}. The evidence is
 * {@link PerformanceEvidence}'s, the causes ruled out {@link PerformanceAlternatives}', what was looked at
 * {@link PerformanceChecks}', the scope and recurrence {@link PerformanceReach}'s.
 */
public final class PerformanceDiagnosis {

    /** How far back a recurrence counts. */
    public static final Duration RECURRENCE = Duration.ofDays(7);

    /** A jitter event of the service in the look-back: consecutive minutes whose p99 was over {@code limitMs}. */
    public record JitterSign(long id, String slo, String sli, Instant start, Instant end, int badMinutes,
                             double peakP99Ms, BigDecimal limitMs) {
    }

    /**
     * One of the service's SLOs read over the look-back.
     *
     * @param firstFiring the first instant read at which a burn-rate alert fired; null when none did
     * @param firing      the alerts firing then, as a sentence
     * @param state       its state at the end of the look-back
     * @param problem     why it could not be read (then the rest is null)
     */
    public record SloReading(String name, String sli, Instant firstFiring, String firing, String state, String problem) {
    }

    /**
     * A slow spell of a service, as the decision reads it.
     *
     * @param service        "namespace/name"
     * @param eventId        the jitter event it is, or null for a burning SLO's spell without one
     * @param signals        its suspects at its start — the neighbours on its cards, the host's and the cards'
     *                       pressures — in their rank order
     * @param neighboursRead whether its cards and their other pods were read whole
     * @param pods           its pods ("namespace/pod")
     * @param unmeasured     the pressures that could not be measured and why; null when the host and the cards were
     *                       not read (a jitter event attributed before they were)
     */
    public record Spell(String service, Long eventId, Instant start, Instant end,
                        List<PerformanceCause.Signal> signals, boolean neighboursRead, Set<String> pods,
                        List<JitterEvidence.Unmeasured> unmeasured) {
    }

    /**
     * Who the current spell's neighbours were, to name them: the service's pods with their cards, the other pods on
     * those cards (with namespace, owner, tenant, kind and arrival), and where that was read.
     */
    public record Neighbourhood(String source, List<JitterEvidence.PodGpus> pods,
                                List<JitterEvidence.Neighbour> neighbours, List<String> gaps) {
    }

    /**
     * Another service's spell on the same cards: its requests by minute, and which of its pods were the current
     * spell's neighbours.
     */
    public record Other(Spell spell, NavigableMap<Instant, Long> requests, Set<String> podsOnCards) {
    }

    /** The interference factor of the service over a window: p99 with {@code bucket} other pods against alone. */
    public record Interference(TimeWindow window, String sli, String bucket, long sharedPodMinutes, Double sharedP99Ms,
                               Double dedicatedP99Ms, BigDecimal ifLatency) {
    }

    /**
     * Everything a triage of a service decides from.
     *
     * @param lookBack     the span before {@code at} a spell was looked for in
     * @param requests     the service's requests by minute, over the recurrence week and the baseline before it
     * @param interference null when it could not be read ({@code notes} says why)
     * @param changes      the change book's entries before {@code at}, newest first; null when not read
     * @param history      the service's jitter events in the week before {@code at}, the current one included
     * @param others       other services' spells overlapping the current one, on its cards
     * @param podTenants   the tenant of every pod known ("namespace/pod"; null value: of no tenant)
     * @param notes        what could not be read, and other lines for {@code checked}
     */
    public record Inputs(Triage.Subject subject, Instant at, TimeWindow lookBack, Duration baseline,
                         List<JitterSign> jitter, List<SloReading> slos, Spell spell, Neighbourhood neighbourhood,
                         NavigableMap<Instant, Long> requests, Interference interference, List<Change> changes,
                         List<Spell> history, List<Other> others, Map<String, String> podTenants, List<String> notes) {
    }

    private PerformanceDiagnosis() {
    }

    /** A service that was not slow: NONE, with what was looked at. */
    public static Triage healthy(Triage.Subject subject, Instant at, TimeWindow lookBack, List<SloReading> slos,
                                 List<String> notes) {
        Names names = new Names(Map.of());
        String service = names.service(subject.namespace(), subject.name(), subject.tenant());
        List<String> checked = new ArrayList<>();
        checked.add("jitter events of " + service + " overlapping " + lookBack.start() + " to " + lookBack.end()
                + ": none");
        PerformanceChecks.sloLines(service, slos, lookBack, checked);
        checked.addAll(notes);
        return new Triage(subject, at, Symptom.NONE, null, null, null, null, List.of(), null, List.of(), List.of(),
                checked, null, names.list());
    }

    public static Triage diagnose(Inputs in, PerformanceCause.Thresholds t, TriageCommands cmd) {
        Triage.Subject subject = in.subject();
        Names names = new Names(in.podTenants());
        String service = names.service(subject.namespace(), subject.name(), subject.tenant());
        Spell spell = in.spell();
        RequestRate rate = RequestRate.of(in.requests(), spell.start(), spell.end(), in.baseline());
        PerformanceCause.Verdict v = PerformanceCause.decide(spell.signals(), spell.neighboursRead(), rate, t);
        FailureCause cause = v.cause();
        // in this order: the answer lists the names as the evidence, the alternatives and the scope write them
        List<Triage.Evidence> evidence = PerformanceEvidence.of(in, v, rate, names, service, cmd);
        List<Triage.Alternative> alternatives = PerformanceAlternatives.of(v, spell, t, names);
        List<String> checked = PerformanceChecks.of(in, v, rate, service, names);
        Triage.Scope scope = PerformanceReach.scope(in, cause, t, names);
        Triage.Recurrence recurrence = PerformanceReach.recurrence(in, cause, t);
        List<Triage.ChangeRef> changes = in.changes() == null ? List.of() : in.changes().stream()
                .map(c -> new Triage.ChangeRef(c.id(), c.at(), c.kind(), c.node(), c.subject(), c.before(), c.after()))
                .toList();
        return new Triage(subject, in.at(), Symptom.PERFORMANCE, cause.rootCause().label(), cause.label(),
                v.confidence(), scope, changes, recurrence, evidence, alternatives, checked, null, names.list());
    }

    /** A number without trailing zeros: 1.5, 22, 0.818. */
    static String plain(double v) {
        return BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }
}
