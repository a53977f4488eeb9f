package io.gpumeter.slo.triage;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.common.triage.FailureCause;
import io.gpumeter.common.triage.Symptom;
import io.gpumeter.common.triage.Triage;
import io.gpumeter.slo.client.Change;
import io.gpumeter.slo.domain.SuspectRanking;
import io.gpumeter.slo.service.JitterEvidence;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * A slow inference service's triage from the facts slo-service holds: the symptom (a jitter event, a burning SLO),
 * the cause {@link PerformanceCause} decides, the evidence with the command that shows each fact, the causes ruled
 * out and by what, the change book before, how often the same cause struck the service in the week before, and which
 * other services on its cards showed the same cause then. Pure: every fact comes in {@link Inputs}.
 */
public final class PerformanceDiagnosis {

    /** How far back a recurrence counts. */
    public static final Duration RECURRENCE = Duration.ofDays(7);
    /** The suspects an answer describes when it rules neighbours out. */
    static final int DESCRIBED = 3;

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
     * @param signals        the neighbours on its cards at its start, in their suspects' rank order
     * @param neighboursRead whether its cards and their other pods were read whole
     * @param pods           its pods ("namespace/pod")
     */
    public record Spell(String service, Long eventId, Instant start, Instant end,
                        List<PerformanceCause.Signal> signals, boolean neighboursRead, Set<String> pods) {
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
        sloLines(service, slos, lookBack, checked);
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

        List<Triage.Evidence> evidence = new ArrayList<>();
        for (JitterSign j : in.jitter()) {
            evidence.add(new Triage.Evidence(j.start(), "jitter", String.format(Locale.ROOT,
                    "jitter event %d of SLO %s: %s p99 over %s ms for %d minute%s from %s to %s, at most %.1f ms",
                    j.id(), j.slo(), j.sli(), j.limitMs().toPlainString(), j.badMinutes(), j.badMinutes() == 1 ? "" : "s",
                    j.start(), j.end(), j.peakP99Ms()), cmd.slo("/api/v1/jitter-events/" + j.id())));
        }
        for (SloReading s : in.slos()) {
            if (s.firstFiring() != null) {
                evidence.add(new Triage.Evidence(s.firstFiring(), "slo", "SLO " + s.name() + " (" + s.sli()
                        + ") burning: " + s.firing(), cmd.slo("/api/v1/slos/" + s.name() + "/status", "at",
                        s.firstFiring().toString())));
            }
        }
        placement(in, names, cmd).ifPresent(evidence::add);
        if (v.change() != null) {
            evidence.add(neighbourEvidence(v.change(), in, names, cmd));
        }
        evidence.add(rateEvidence(rate, subject, service, cmd));
        if (in.interference() != null && in.interference().ifLatency() != null) {
            Interference f = in.interference();
            evidence.add(new Triage.Evidence(spell.start(), "latency", String.format(Locale.ROOT,
                    "interference factor %s to %s: %s p99 %.1f ms over %d pod-minutes with %s other pod%s on its cards"
                            + " against %.1f ms alone = x%s", f.window().start(), f.window().end(), f.sli(),
                    f.sharedP99Ms(), f.sharedPodMinutes(), f.bucket(), "1".equals(f.bucket()) ? "" : "s",
                    f.dedicatedP99Ms(), f.ifLatency().toPlainString()),
                    cmd.slo("/api/v1/interference", "service", subject.name(), "namespace", subject.namespace(), "from",
                            f.window().start().toString(), "to", f.window().end().toString(), "sli", f.sli())));
        }
        evidence.sort(Comparator.comparing(Triage.Evidence::at));

        List<Triage.Alternative> alternatives = new ArrayList<>();
        if (cause != FailureCause.NEIGHBOUR_INTERFERENCE) {
            alternatives.add(new Triage.Alternative(FailureCause.NEIGHBOUR_INTERFERENCE.label(),
                    neighboursRuledOut(v, spell, t, names)));
        }
        if (cause != FailureCause.OWN_LOAD) {
            alternatives.add(new Triage.Alternative(FailureCause.OWN_LOAD.label(), loadRuledOut(v, t)));
        }

        List<String> checked = new ArrayList<>();
        checked.add("jitter events of " + service + " overlapping " + in.lookBack().start() + " to "
                + in.lookBack().end() + ": " + (in.jitter().isEmpty() ? "none" : String.join(", ",
                in.jitter().stream().map(j -> "event " + j.id() + " (SLO " + j.slo() + ")").toList())));
        sloLines(service, in.slos(), in.lookBack(), checked);
        checked.add("the spell: " + spell.start() + " to " + spell.end() + (spell.eventId() == null
                ? " (from the first bad minute of a burning SLO in the look-back)" : " (jitter event " + spell.eventId() + ")"));
        Neighbourhood hood = in.neighbourhood();
        checked.add("neighbours: " + hood.source() + "; " + hood.neighbours().size() + " other pod"
                + (hood.neighbours().size() == 1 ? "" : "s") + " on its cards");
        hood.gaps().forEach(g -> checked.add("not read: " + g));
        if (!spell.neighboursRead()) {
            checked.add("neighbour interference could not be ruled out: its cards or their other pods were not read whole");
        }
        checked.add("request rate: " + rate.spell().start() + " to " + rate.spell().end() + " against "
                + rate.baseline().start() + " to " + rate.baseline().end());
        if (rate.ratio() == null) {
            checked.add("own load could not be ruled out: no requests from " + rate.baseline().start() + " to "
                    + rate.baseline().end() + " to compare with");
        } else if (v.loadRose() && cause != FailureCause.OWN_LOAD) {
            checked.add(String.format(Locale.ROOT, "own load was not ruled out: its request rate rose too (x%s)",
                    plain(rate.ratio())));
        }
        if (in.interference() != null && in.interference().ifLatency() == null) {
            checked.add("interference factor " + in.interference().window().start() + " to "
                    + in.interference().window().end() + ": no minutes both alone and shared on its cards to compare");
        }
        checked.add((cause == FailureCause.UNEXPLAINED ? "could not rule out" : "not read")
                + ": the host's CPU throttling, I/O wait, network and power or thermal limits (no host inputs are read yet)");
        checked.add("recurrence: its jitter events in the " + RECURRENCE.toDays() + " days before " + in.at()
                + ", each judged by the suspects and the request rates stored with it");
        checked.add("scope: other services' jitter events overlapping the spell whose pods were its neighbours");
        checked.addAll(in.notes());

        Triage.Scope scope = scope(in, cause, t, names);
        Triage.Recurrence recurrence = recurrence(in, cause, t);
        List<Triage.ChangeRef> changes = in.changes() == null ? List.of() : in.changes().stream()
                .map(c -> new Triage.ChangeRef(c.id(), c.at(), c.kind(), c.node(), c.subject(), c.before(), c.after()))
                .toList();
        return new Triage(subject, in.at(), Symptom.PERFORMANCE, cause.rootCause().label(), cause.label(),
                v.confidence(), scope, changes, recurrence, evidence, alternatives, checked, null, names.list());
    }

    private static void sloLines(String service, List<SloReading> slos, TimeWindow lookBack, List<String> checked) {
        if (slos.isEmpty()) {
            checked.add("SLOs: none selects " + service);
        }
        for (SloReading s : slos) {
            checked.add("SLO " + s.name() + (s.sli() == null ? "" : " (" + s.sli() + ")") + ": " + (s.problem() != null
                    ? "could not be read (" + s.problem() + ")" : s.firstFiring() != null
                    ? "burning from " + s.firstFiring() : "not burning from " + lookBack.start() + " to "
                    + lookBack.end() + " (" + s.state() + " at " + lookBack.end() + ")"));
        }
    }

    /** Where the service's pods ran at the spell's start: pods, cards and nodes. */
    private static java.util.Optional<Triage.Evidence> placement(Inputs in, Names names, TriageCommands cmd) {
        List<JitterEvidence.PodGpus> pods = in.neighbourhood().pods();
        if (pods.isEmpty()) {
            return java.util.Optional.empty();
        }
        List<String> parts = new ArrayList<>();
        for (JitterEvidence.PodGpus p : pods) {
            String where = p.gpus().isEmpty() ? "no card the ledger knows" : String.join(", ", p.gpus().stream()
                    .map(g -> g.gpuUuid() + " (node " + g.node() + ")").toList());
            parts.add(names.pod(p.namespace() + "/" + p.pod()) + " on " + where);
        }
        return java.util.Optional.of(new Triage.Evidence(in.spell().start(), "ledger", "its pods at the spell's start: "
                + String.join("; ", parts), cmd.pods(in.subject().namespace(), pods.stream()
                .filter(p -> p.namespace().equals(in.subject().namespace())).map(JitterEvidence.PodGpus::pod).toList())));
    }

    private static Triage.Evidence neighbourEvidence(PerformanceCause.NeighbourChange change, Inputs in, Names names,
                                                     TriageCommands cmd) {
        SuspectRanking.Suspect s = change.neighbour().suspect();
        JitterEvidence.Neighbour n = in.neighbourhood().neighbours().stream()
                .filter(x -> (x.namespace() + "/" + x.pod()).equals(s.key())).findFirst().orElse(null);
        Instant start = in.spell().start();
        String who = names.pod(s.key());
        String gpu = n == null || n.curveGpu() == null ? null : n.curveGpu();
        StringBuilder fact = new StringBuilder("neighbour ").append(who);
        if (n != null) {
            fact.append(" (namespace ").append(n.namespace()).append(", ").append(n.kind());
            if (n.ownerName() != null) {
                fact.append(", ").append(n.ownerKind() == null ? "owner" : n.ownerKind()).append(' ')
                        .append(names.workload(n.namespace(), n.ownerName(), n.tenant()));
            }
            fact.append(')');
        }
        if (gpu != null) {
            fact.append(" on ").append(gpu).append(node(in, gpu).map(x -> " of node " + x).orElse(""));
        }
        String arrived = s.arrivedMinutesBefore() == null ? "arrival unknown"
                : String.format(Locale.ROOT, "arrived %.1f min before the spell", s.arrivedMinutesBefore());
        SuspectRanking.Rise r = change.rise();
        if (r != null) {
            fact.append(String.format(Locale.ROOT, ": its own %s rose from %.3f to %.3f in the %d min before the spell"
                            + " (+%.3f); %s; suspect %d of %d (score %.3f)", r.field(), r.before(), r.recent(),
                    SuspectRanking.RECENT.toMinutes(), r.rise(), arrived, s.rank(), in.spell().signals().size(), s.score()));
            String command = gpu == null ? cmd.pods(namespaceOf(s.key()), List.of(podOf(s.key())))
                    : cmd.activity(r.field(), gpu, namespaceOf(s.key()), podOf(s.key()),
                    start.minus(SuspectRanking.ARRIVAL_HORIZON), in.spell().end());
            return new Triage.Evidence(start, "usage", fact.toString(), command);
        }
        fact.append(String.format(Locale.ROOT, ": %s, its activity not told apart from the card's; suspect %d of %d"
                + " (score %.3f)", arrived, s.rank(), in.spell().signals().size(), s.score()));
        return new Triage.Evidence(start, "ledger", fact.toString(),
                cmd.pods(namespaceOf(s.key()), List.of(podOf(s.key()))));
    }

    private static java.util.Optional<String> node(Inputs in, String gpu) {
        return in.neighbourhood().pods().stream().flatMap(p -> p.gpus().stream())
                .filter(g -> gpu.equals(g.gpuUuid()) && g.node() != null).map(JitterEvidence.Gpu::node).findFirst();
    }

    private static Triage.Evidence rateEvidence(RequestRate rate, Triage.Subject subject, String service,
                                                TriageCommands cmd) {
        String fact = String.format(Locale.ROOT, "requests of %s: %s a minute from %s to %s against %s a minute from"
                        + " %s to %s (%s)", service, plain(rate.spellPerMinute()), rate.spell().start(), rate.spell().end(),
                plain(rate.baselinePerMinute()), rate.baseline().start(), rate.baseline().end(),
                rate.ratio() == null ? "none before: no rise can be told" : "x" + plain(rate.ratio()));
        return new Triage.Evidence(rate.spell().start(), "latency", fact,
                cmd.requestRate(subject.namespace(), subject.name(), rate.baseline().start(), rate.spell().end()));
    }

    /** What ruled neighbour interference out; null when it could not be (its neighbours were not read whole). */
    private static String neighboursRuledOut(PerformanceCause.Verdict v, Spell spell, PerformanceCause.Thresholds t,
                                             Names names) {
        if (!spell.neighboursRead()) {
            return null;
        }
        if (spell.signals().isEmpty()) {
            return "no other pod held its cards at " + spell.start();
        }
        List<String> described = new ArrayList<>();
        for (PerformanceCause.Signal n : spell.signals().subList(0, Math.min(DESCRIBED, spell.signals().size()))) {
            SuspectRanking.Suspect s = n.suspect();
            String arrived = s.arrivedMinutesBefore() == null ? "arrival unknown"
                    : String.format(Locale.ROOT, "present %.1f min before", s.arrivedMinutesBefore());
            String activity = n.ownRise().map(r -> String.format(Locale.ROOT, "its own %s +%.3f", r.field(), r.rise()))
                    .orElse(s.rises() == null || s.rises().isEmpty() ? "no activity curve" : "only the card's curves");
            described.add(names.pod(s.key()) + " (" + arrived + ", " + activity + ")");
        }
        int more = spell.signals().size() - described.size();
        return String.format(Locale.ROOT, "no neighbour on its cards arrived in the %d min before %s or rose by %s: %s%s",
                SuspectRanking.ARRIVAL_HORIZON.toMinutes(), spell.start(), plain(t.minActivityRise()),
                String.join("; ", described), more > 0 ? " and " + more + " more" : "");
    }

    /** What ruled the service's own load out; null when it could not be (it rose too, or there was no baseline). */
    private static String loadRuledOut(PerformanceCause.Verdict v, PerformanceCause.Thresholds t) {
        RequestRate r = v.rate();
        if (v.loadRose() || r == null || r.ratio() == null) {
            return null;
        }
        return String.format(Locale.ROOT, "its request rate did not rise: %s a minute against %s before (x%s, under x%s)",
                plain(r.spellPerMinute()), plain(r.baselinePerMinute()), plain(r.ratio()), plain(t.loadRise()));
    }

    /**
     * The other services' pods on the same cards whose spells then triage to the same cause: NODE when there are any
     * (the cause reaches past the service), else POD. A pod whose tenant is not known is counted, never named.
     */
    private static Triage.Scope scope(Inputs in, FailureCause cause, PerformanceCause.Thresholds t, Names names) {
        Set<String> alike = new TreeSet<>();
        Set<String> unnamed = new TreeSet<>();
        for (Other o : in.others()) {
            if (judge(o.spell(), o.requests(), in.baseline(), t) != cause) {
                continue;
            }
            for (String pod : o.podsOnCards()) {
                (names.knows(pod) ? alike : unnamed).add(pod);
            }
        }
        alike.forEach(names::pod);
        return new Triage.Scope(alike.isEmpty() && unnamed.isEmpty() ? "POD" : "NODE", List.copyOf(alike),
                unnamed.size());
    }

    /** The service's spells in the week before {@code at} judged to the same cause, this one included. */
    private static Triage.Recurrence recurrence(Inputs in, FailureCause cause, PerformanceCause.Thresholds t) {
        Instant since = in.at().minus(RECURRENCE);
        Map<Long, Instant> same = new LinkedHashMap<>();
        for (Spell s : in.history()) {
            if (s.end().isAfter(since) && !s.start().isAfter(in.at())
                    && judge(s, in.requests(), in.baseline(), t) == cause) {
                same.put(s.eventId(), s.start());
            }
        }
        List<Instant> starts = new ArrayList<>(same.values());
        if (in.spell().eventId() == null || !same.containsKey(in.spell().eventId())) {
            starts.add(in.spell().start());
        }
        return new Triage.Recurrence(starts.size(), starts.stream().filter(Objects::nonNull)
                .min(Comparator.naturalOrder()).orElse(in.spell().start()));
    }

    private static FailureCause judge(Spell s, NavigableMap<Instant, Long> requests, Duration baseline,
                                      PerformanceCause.Thresholds t) {
        return PerformanceCause.decide(s.signals(), s.neighboursRead(),
                RequestRate.of(requests, s.start(), s.end(), baseline), t).cause();
    }

    private static String namespaceOf(String podKey) {
        return podKey.substring(0, podKey.indexOf('/'));
    }

    private static String podOf(String podKey) {
        return podKey.substring(podKey.indexOf('/') + 1);
    }

    /** A number without trailing zeros: 1.5, 22, 0.818. */
    private static String plain(double v) {
        return BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }
}
