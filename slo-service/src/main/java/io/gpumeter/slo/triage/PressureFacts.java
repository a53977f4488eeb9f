package io.gpumeter.slo.triage;

import io.gpumeter.common.triage.FailureCause;
import io.gpumeter.common.triage.Triage;
import io.gpumeter.slo.domain.SuspectKind;
import io.gpumeter.slo.domain.SuspectRanking;
import io.gpumeter.slo.service.JitterEvidence;
import io.gpumeter.slo.triage.PerformanceDiagnosis.Inputs;
import io.gpumeter.slo.triage.PerformanceDiagnosis.Spell;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * What a slow service's triage says of the host's and the card's pressures on it: the fact of the one that rose, with
 * the command that shows it; what ruled each of their causes out; and what could not be measured, so that an answer
 * that cannot name a cause says what is missing.
 */
final class PressureFacts {

    /** The causes the host and the card can be, in the order they are ruled out. */
    static final List<FailureCause> CAUSES = List.of(FailureCause.CPU_SATURATED, FailureCause.IO_WAIT,
            FailureCause.NETWORK, FailureCause.POWER_OR_THERMAL);

    private PressureFacts() {
    }

    /** The pressure a suspect is, in words: whose, and of what. */
    static String what(SuspectRanking.Suspect s, Names names) {
        SuspectKind kind = s.suspectKind();
        String subject = kind.subject(s.key());
        return switch (kind) {
            case CPU_THROTTLING -> "the CFS throttling of its pod " + names.pod(subject);
            case NETWORK -> "its pod " + names.pod(subject) + "'s share of its node's network";
            case NODE_CPU_PRESSURE -> "the CPU pressure of node " + subject;
            case NODE_IO_PRESSURE -> "the I/O pressure of node " + subject;
            case CARD_CLOCKS -> "the power and thermal slowdowns of card " + subject;
            case NEIGHBOUR -> "neighbour " + names.pod(subject);
        };
    }

    /** The fact of the pressure that rose, with the command that shows its curve. */
    static Triage.Evidence evidence(PerformanceCause.Changed change, Inputs in, Names names, TriageCommands cmd) {
        SuspectRanking.Suspect s = change.signal().suspect();
        SuspectRanking.Rise r = change.rise();
        Instant start = in.spell().start();
        String fact = String.format(Locale.ROOT, "%s: %s rose from %.3f to %.3f in the %d min before the spell (+%.3f);"
                        + " suspect %d of %d (score %.3f)", what(s, names), r.field(), r.before(), r.recent(),
                SuspectRanking.RECENT.toMinutes(), r.rise(), s.rank(), in.spell().signals().size(), s.score());
        SuspectKind kind = s.suspectKind();
        String subject = kind.subject(s.key());
        Instant from = start.minus(SuspectRanking.ARRIVAL_HORIZON);
        Instant to = in.spell().end();
        String command = switch (kind) {
            case CPU_THROTTLING -> cmd.cfsThrottling(namespaceOf(subject), podOf(subject), from, to);
            case NETWORK -> cmd.networkBytes(namespaceOf(subject), podOf(subject), from, to);
            case NODE_CPU_PRESSURE -> cmd.nodeRate("node_pressure_cpu_waiting_seconds_total", subject, from, to);
            case NODE_IO_PRESSURE -> cmd.nodeRate("node_pressure_io_stalled_seconds_total", subject, from, to);
            case CARD_CLOCKS, NEIGHBOUR -> cmd.cardThrottling(subject, from, to);
        };
        return new Triage.Evidence(start, kind == SuspectKind.CARD_CLOCKS ? "usage" : "host", fact, command);
    }

    /**
     * What ruled one of the host's or the card's causes out: every pressure of it measured, none risen by the
     * threshold. Null when it could not be ruled out: one of them rose, one could not be measured, or none was read.
     */
    static String ruledOut(FailureCause cause, PerformanceCause.Verdict v, Spell spell, PerformanceCause.Thresholds t,
                           Names names) {
        if (v.changed(cause) || spell.unmeasured() == null
                || spell.unmeasured().stream().anyMatch(u -> cause.label().equals(u.cause()))) {
            return null;
        }
        List<String> measured = new ArrayList<>();
        for (PerformanceCause.Signal n : spell.signals()) {
            if (!n.neighbour() && n.suspect().suspectKind().cause() == cause) {
                measured.add(what(n.suspect(), names) + " " + n.ownRise().map(r -> String.format(Locale.ROOT,
                        "%s %.3f to %.3f (+%.3f)", r.field(), r.before(), r.recent(), r.rise())).orElse("(no curve)"));
            }
        }
        if (measured.isEmpty()) {
            return null;
        }
        return String.format(Locale.ROOT, "%s did not rise by %s in the %d min before %s: %s", causeWords(cause),
                PerformanceDiagnosis.plain(t.minActivityRise()), SuspectRanking.RECENT.toMinutes(), spell.start(),
                String.join("; ", measured));
    }

    /** What the triage says it looked at of the host and the card, and what it could not measure or rule out. */
    static List<String> checks(Inputs in, PerformanceCause.Verdict v, Names names) {
        Spell spell = in.spell();
        Set<String> lines = new LinkedHashSet<>();
        if (spell.unmeasured() == null) {
            lines.add((v.cause() == FailureCause.UNEXPLAINED ? "could not rule out" : "not read")
                    + ": the host's CPU throttling, I/O wait, network and power or thermal limits (not read when the"
                    + " spell's evidence was gathered)");
            return List.copyOf(lines);
        }
        List<String> measured = spell.signals().stream().filter(n -> !n.neighbour())
                .map(n -> what(n.suspect(), names)).toList();
        lines.add("host and card around the spell: " + (measured.isEmpty() ? "nothing measured"
                : String.join(", ", measured) + " measured"));
        for (JitterEvidence.Unmeasured u : spell.unmeasured()) {
            lines.add((u.cause().equals(v.cause().label()) ? "not measured (" + u.cause() + "): "
                    : "could not rule out " + u.cause() + ": ") + u.missing());
        }
        for (PerformanceCause.Changed c : v.alsoChanged()) {
            SuspectRanking.Suspect s = c.signal().suspect();
            lines.add("not ruled out: " + c.cause().label() + ", " + (c.rise() == null
                    ? what(s, names) + " arrived " + Optional.ofNullable(s.arrivedMinutesBefore())
                    .map(m -> String.format(Locale.ROOT, "%.1f", m)).orElse("?") + " min before the spell too"
                    : String.format(Locale.ROOT, "%s%s %s rose too (+%.3f)", what(s, names),
                    c.signal().neighbour() ? "'s own" : "", c.rise().field(), c.rise().rise())));
        }
        return List.copyOf(lines);
    }

    private static String causeWords(FailureCause cause) {
        return switch (cause) {
            case CPU_SATURATED -> "its pods' CPU throttling and its nodes' CPU pressure";
            case IO_WAIT -> "its nodes' I/O pressure";
            case NETWORK -> "its pods' share of their nodes' network";
            case POWER_OR_THERMAL -> "its cards' power and thermal slowdowns";
            default -> cause.label();
        };
    }

    private static String namespaceOf(String podKey) {
        return podKey.substring(0, podKey.indexOf('/'));
    }

    private static String podOf(String podKey) {
        return podKey.substring(podKey.indexOf('/') + 1);
    }
}
