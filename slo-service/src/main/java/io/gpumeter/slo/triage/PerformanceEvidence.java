package io.gpumeter.slo.triage;

import io.gpumeter.common.triage.Triage;
import io.gpumeter.slo.domain.SuspectRanking;
import io.gpumeter.slo.service.JitterEvidence;
import io.gpumeter.slo.triage.PerformanceDiagnosis.Inputs;
import io.gpumeter.slo.triage.PerformanceDiagnosis.Interference;
import io.gpumeter.slo.triage.PerformanceDiagnosis.JitterSign;
import io.gpumeter.slo.triage.PerformanceDiagnosis.SloReading;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The evidence of a slow service's triage, in time order, each fact with the command that shows it: its jitter events
 * and burning SLOs, where its pods ran, the host's or the card's pressure that rose ({@link PressureFacts}) or the
 * neighbour whose own activity rose, its request rate against the baseline, its interference factor.
 */
final class PerformanceEvidence {

    private PerformanceEvidence() {
    }

    /** @param service the service as the answer names it */
    static List<Triage.Evidence> of(Inputs in, PerformanceCause.Verdict v, RequestRate rate, Names names, String service,
                                    TriageCommands cmd) {
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
            evidence.add(v.change().signal().neighbour() ? neighbourEvidence(v.change(), in, names, cmd)
                    : PressureFacts.evidence(v.change(), in, names, cmd));
        }
        evidence.add(rateEvidence(rate, in.subject(), service, cmd));
        if (in.interference() != null && in.interference().ifLatency() != null) {
            Interference f = in.interference();
            evidence.add(new Triage.Evidence(in.spell().start(), "latency", String.format(Locale.ROOT,
                    "interference factor %s to %s: %s p99 %.1f ms over %d pod-minutes with %s other pod%s on its cards"
                            + " against %.1f ms alone = x%s", f.window().start(), f.window().end(), f.sli(),
                    f.sharedP99Ms(), f.sharedPodMinutes(), f.bucket(), "1".equals(f.bucket()) ? "" : "s",
                    f.dedicatedP99Ms(), f.ifLatency().toPlainString()),
                    cmd.slo("/api/v1/interference", "service", in.subject().name(), "namespace", in.subject().namespace(), "from",
                            f.window().start().toString(), "to", f.window().end().toString(), "sli", f.sli())));
        }
        evidence.sort(Comparator.comparing(Triage.Evidence::at));
        return evidence;
    }

    /** Where the service's pods ran at the spell's start: pods, cards and nodes. */
    private static Optional<Triage.Evidence> placement(Inputs in, Names names, TriageCommands cmd) {
        List<JitterEvidence.PodGpus> pods = in.neighbourhood().pods();
        if (pods.isEmpty()) {
            return Optional.empty();
        }
        List<String> parts = new ArrayList<>();
        for (JitterEvidence.PodGpus p : pods) {
            String where = p.gpus().isEmpty() ? "no card the ledger knows" : String.join(", ", p.gpus().stream()
                    .map(g -> g.gpuUuid() + " (node " + g.node() + ")").toList());
            parts.add(names.pod(p.namespace() + "/" + p.pod()) + " on " + where);
        }
        return Optional.of(new Triage.Evidence(in.spell().start(), "ledger", "its pods at the spell's start: "
                + String.join("; ", parts), cmd.pods(in.subject().namespace(), pods.stream()
                .filter(p -> p.namespace().equals(in.subject().namespace())).map(JitterEvidence.PodGpus::pod).toList())));
    }

    private static Triage.Evidence neighbourEvidence(PerformanceCause.Changed change, Inputs in, Names names,
                                                     TriageCommands cmd) {
        SuspectRanking.Suspect s = change.signal().suspect();
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

    private static Optional<String> node(Inputs in, String gpu) {
        return in.neighbourhood().pods().stream().flatMap(p -> p.gpus().stream())
                .filter(g -> gpu.equals(g.gpuUuid()) && g.node() != null).map(JitterEvidence.Gpu::node).findFirst();
    }

    private static Triage.Evidence rateEvidence(RequestRate rate, Triage.Subject subject, String service,
                                                TriageCommands cmd) {
        String fact = String.format(Locale.ROOT, "requests of %s: %s a minute from %s to %s against %s a minute from"
                        + " %s to %s (%s)", service, PerformanceDiagnosis.plain(rate.spellPerMinute()), rate.spell().start(), rate.spell().end(),
                PerformanceDiagnosis.plain(rate.baselinePerMinute()), rate.baseline().start(), rate.baseline().end(),
                rate.ratio() == null ? "none before: no rise can be told" : "x" + PerformanceDiagnosis.plain(rate.ratio()));
        return new Triage.Evidence(rate.spell().start(), "latency", fact,
                cmd.requestRate(subject.namespace(), subject.name(), rate.baseline().start(), rate.spell().end()));
    }

    private static String namespaceOf(String podKey) {
        return podKey.substring(0, podKey.indexOf('/'));
    }

    private static String podOf(String podKey) {
        return podKey.substring(podKey.indexOf('/') + 1);
    }
}
