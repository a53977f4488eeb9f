package io.gpumeter.ledger.triage.domain;

import io.gpumeter.common.triage.Confidence;
import io.gpumeter.common.triage.FailureCause;
import io.gpumeter.common.triage.Symptom;
import io.gpumeter.common.triage.Triage.Alternative;
import io.gpumeter.common.triage.Triage.Evidence;
import io.gpumeter.ledger.hami.domain.GrantFinding;
import io.gpumeter.ledger.violation.domain.Violation;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * OVERUSE, declared against actual: the pod's episodes above its allocation ({@code QUOTA_SOFT}, sustained:
 * {@code QUOTA_HARD}), on a card it holds nothing of ({@code QUOTA_BYPASS}), and its HAMi grants the cluster's own
 * components do not confirm ({@code HAMI_GRANT_UNVERIFIED}). A bypass leads (a card no admission granted), then an
 * unverified grant (a grant that may be forged), then the hard and the soft episodes; those overlapping the instant
 * before older ones.
 */
public final class OveruseBranch {

    private OveruseBranch() {
    }

    /** The OVERUSE diagnosis of the pod at its instant, or null when it used no more than it declared. */
    public static Diagnosis diagnose(PodCase c) {
        Instant from = c.at().minus(Leads.RECENT);
        List<Violation> episodes = c.extras().violations().stream()
                .filter(v -> mine(c, v) && v.start().isBefore(c.at()) && (v.end() == null || v.end().isAfter(from)))
                .filter(v -> v.kind() == Violation.Kind.SOFT || v.kind() == Violation.Kind.HARD || v.kind() == Violation.Kind.BYPASS)
                .sorted(Comparator.comparing((Violation v) -> rank(causeOf(v)))
                        .thenComparing(v -> v.end() != null && !v.end().isAfter(c.at()))
                        .thenComparing(Violation::start, Comparator.reverseOrder()))
                .toList();
        List<GrantFinding> grants = c.extras().grants().stream()
                .filter(g -> g.since().isBefore(c.at()) && (g.until() == null || g.until().isAfter(from))).toList();
        if (episodes.isEmpty() && grants.isEmpty()) {
            return null;
        }
        FailureCause cause = !episodes.isEmpty() && causeOf(episodes.get(0)) == FailureCause.QUOTA_BYPASS
                ? FailureCause.QUOTA_BYPASS
                : !grants.isEmpty() ? FailureCause.HAMI_GRANT_UNVERIFIED : causeOf(episodes.get(0));
        List<Evidence> evidence = new ArrayList<>();
        List<String> cards = new ArrayList<>();
        String node = c.nodeAt(c.at());
        for (Violation v : episodes) {
            evidence.add(new Evidence(v.start(), "violation", v.kind() + " " + v.resource() + " on " + v.gpuUuid()
                    + (v.container() == null || v.container().isEmpty() ? "" : " by container " + v.container())
                    + " from " + v.start() + (v.end() == null ? "" : " to " + v.end()) + ", " + v.minutes() + " minute(s)"
                    + (v.peakRatio() == null ? "" : ", at most " + Math.round(v.peakRatio() * 100) + " % of its allocation"),
                    v.kind() == Violation.Kind.BYPASS ? Commands.processMemory(node, v.gpuUuid())
                            : Commands.execNvidiaSmi(c.namespace(), c.name())));
            if (v.gpuUuid() != null && !cards.contains(v.gpuUuid())) {
                cards.add(v.gpuUuid());
            }
        }
        for (GrantFinding g : grants) {
            evidence.add(new Evidence(g.since(), "hami-grant", "HAMi grant of " + g.memoryMib() + " MiB and " + g.cores()
                    + " % cores on " + g.gpuUuid() + " (node " + g.node() + ") not confirmed: " + g.check().words()
                    + (g.detail() == null ? "" : " (" + g.detail() + ")"),
                    Commands.podAnnotation(c.namespace(), c.name(), "hami.io/vgpu-devices-allocated")));
        }
        Instant since = cause == FailureCause.HAMI_GRANT_UNVERIFIED
                ? grants.stream().map(GrantFinding::since).min(Comparator.naturalOrder()).orElseThrow()
                : episodes.stream().filter(v -> causeOf(v) == cause).map(Violation::start).min(Comparator.naturalOrder())
                        .orElseThrow();
        List<Alternative> alternatives = new ArrayList<>();
        for (FailureCause other : List.of(FailureCause.QUOTA_BYPASS, FailureCause.HAMI_GRANT_UNVERIFIED,
                FailureCause.QUOTA_HARD, FailureCause.QUOTA_SOFT)) {
            if (other != cause) {
                boolean seen = other == FailureCause.HAMI_GRANT_UNVERIFIED ? !grants.isEmpty()
                        : episodes.stream().anyMatch(v -> causeOf(v) == other);
                alternatives.add(new Alternative(other.label(), seen ? "also seen; " + cause.label() + " is read first"
                        : "no such episode in the day before " + c.at()));
            }
        }
        return new Diagnosis(Symptom.OVERUSE, cause.label(), cause.rootCause(), Confidence.HIGH, since,
                node == null ? List.of() : List.of(node), cards, "POD", null, evidence, alternatives, List.of(), List.of());
    }

    public static FailureCause causeOf(Violation v) {
        return switch (v.kind()) {
            case HARD -> FailureCause.QUOTA_HARD;
            case BYPASS -> FailureCause.QUOTA_BYPASS;
            default -> FailureCause.QUOTA_SOFT;
        };
    }

    private static boolean mine(PodCase c, Violation v) {
        return c.namespace().equals(v.namespace()) && c.name().equals(v.pod());
    }

    private static int rank(FailureCause cause) {
        return switch (cause) {
            case QUOTA_BYPASS -> 0;
            case QUOTA_HARD -> 2;
            default -> 3;
        };
    }
}
