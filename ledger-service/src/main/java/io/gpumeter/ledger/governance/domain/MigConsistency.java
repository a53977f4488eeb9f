package io.gpumeter.ledger.governance.domain;

import io.gpumeter.common.triage.RootCauseClass;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Whether a node offers the MIG layout its {@code nvidia.com/mig.config} names, in two views: its allocatable MIG
 * devices (the device plugin's {@code nvidia.com/mig-<profile>} resources with the mixed strategy; with the single
 * strategy {@code nvidia.com/gpu} counts MIG devices of the one profile GFD's product label names), and the MIG
 * instances dcgm-exporter reports on its cards. A view that is not there (no status stored, no instance reported, no
 * card count to multiply a per-card layout by) is not judged; a layout the ledger does not know is reported as unknown
 * and never judged; while the MIG manager says {@code pending} the node is being reconfigured (the
 * {@code mig-reconfiguration} incident) and nothing is judged either.
 *
 * <p>Views that still disagree after the grace are one {@code mig-inconsistent} incident from the instant they began
 * to disagree, its evidence the layout expected against what was seen; it recovers when the views agree, and a node
 * deleted meanwhile ends it.
 */
public final class MigConsistency {

    public static final String SCOPE = "mig";
    public static final String CAUSE = "mig-inconsistent";

    /** What a node's views say at an instant. */
    public enum Verdict { AGREE, DISAGREE, UNJUDGED }

    /**
     * The node's MIG state at an instant.
     *
     * @param layout       the layout {@code nvidia.com/mig.config} names, null without one
     * @param known        whether the ledger knows that layout
     * @param expected     what the layout gives each card (per-card variants, one per device the layout tells apart),
     *                     or for a layout naming cards by index the node's totals; empty when unknown
     * @param allocatable  the node's allocatable MIG devices by profile; null when not judged
     * @param instances    the MIG instances dcgm-exporter reports, by card and profile; null when it reports none
     * @param reason       why the verdict is what it is
     */
    public record View(Instant at, String layout, boolean known, String state, String strategy,
                       List<Map<String, Integer>> expected, boolean perCard, Map<String, Integer> allocatable,
                       Map<String, Map<String, Integer>> instances, Verdict verdict, String reason) {
    }

    /**
     * A node's incidents and, while a disagreement waits for its grace or depends on instances that may stop being
     * reported, the instant the node should be derived again without new facts (null: nothing will change by itself).
     */
    public record Result(List<Incident> incidents, Instant recheckAt) {
    }

    private final MigLayouts layouts;
    private final Duration grace;
    private final Duration staleness;

    public MigConsistency(MigLayouts layouts, Duration grace, Duration staleness) {
        this.layouts = layouts;
        this.grace = grace;
        this.staleness = staleness;
    }

    /** The node's views at {@code t}, from its versions and instance runs (any order). */
    public View at(List<MigNodeVersion> versions, List<MigInstanceRun> runs, Instant t) {
        return judge(MigViews.ordered(versions), runs, t);
    }

    /** The node's {@code mig-inconsistent} incidents up to {@code now}, from every stored version and instance run. */
    public Result derive(String node, List<MigNodeVersion> versions, List<MigInstanceRun> runs, Instant now) {
        List<MigNodeVersion> ordered = MigViews.ordered(versions);
        TreeSet<Instant> points = new TreeSet<>();
        ordered.forEach(v -> points.add(v.at()));
        for (MigInstanceRun r : runs) {
            points.add(r.firstSeen());
            points.add(r.lastSeen().plus(staleness));
        }
        points.add(now);
        List<Incident> out = new ArrayList<>();
        Open open = null;
        for (Instant t : points.headSet(now, true)) {
            if (open != null && open.incident == null && !t.isBefore(open.start.plus(grace))) {
                open.incident = new Incident(SCOPE + "/" + node + "/" + CAUSE + "/" + open.start, SCOPE, node, CAUSE,
                        RootCauseClass.DATA_PLANE, node, null, null, null, null, null, open.start, null, null, 1,
                        open.evidence);
            }
            MigNodeVersion latest = MigViews.latest(ordered, t);
            if (latest != null && latest.deleted()) {
                if (open != null && open.incident != null) {
                    out.add(with(open, null, t));
                }
                open = null;
                continue;
            }
            View v = judge(ordered, runs, t);
            if (v.verdict() == Verdict.DISAGREE) {
                if (open == null) {
                    open = new Open(t, MigViews.evidence(v));
                } else if (!open.evidence.equals(MigViews.evidence(v))) {
                    open.evidence = MigViews.evidence(v);
                    open.seen++;
                }
            } else if (v.verdict() == Verdict.AGREE) {
                if (open != null && open.incident != null) {
                    out.add(with(open, t, null));
                }
                open = null;
            } else if (open != null && open.incident == null) {
                // not judged (being reconfigured, no view): the grace starts again once the views can be compared
                open = null;
            }
        }
        if (open == null) {
            return new Result(out, null);
        }
        // still disagreeing: the grace runs out, or a reported instance stops counting, without any new fact
        Instant recheck = null;
        if (open.incident == null) {
            recheck = open.start.plus(grace);
        } else {
            out.add(with(open, null, null));
        }
        for (MigInstanceRun r : runs) {
            Instant gone = r.lastSeen().plus(staleness);
            if (r.presentAt(now, staleness) && (recheck == null || gone.isBefore(recheck))) {
                recheck = gone;
            }
        }
        return new Result(out, recheck);
    }

    /** A disagreement under way: since when, what it looks like, and its incident once past the grace. */
    private static final class Open {
        final Instant start;
        String evidence;
        int seen = 1;
        Incident incident;

        Open(Instant start, String evidence) {
            this.start = start;
            this.evidence = evidence;
        }
    }

    private static Incident with(Open o, Instant recovered, Instant ended) {
        Incident i = o.incident;
        return new Incident(i.key(), i.scope(), i.subject(), i.cause(), i.rootCause(), i.node(), null, null, null, null,
                null, i.startedAt(), recovered, ended, o.seen, o.evidence);
    }

    private View judge(List<MigNodeVersion> ordered, List<MigInstanceRun> runs, Instant t) {
        MigNodeVersion latest = MigViews.latest(ordered, t);
        if (latest == null || latest.deleted()) {
            return unjudged(t, null, false, null, null, latest == null ? "no version of the node by then" : "the node is deleted");
        }
        Map<String, String> labels = latest.labels();
        String config = labels.get(NodeIncidents.MIG_CONFIG);
        String state = labels.get(NodeIncidents.MIG_CONFIG_STATE);
        String strategy = labels.get(MigNodeVersion.STRATEGY);
        if (config == null) {
            return unjudged(t, null, false, state, strategy, "the node names no layout (nvidia.com/mig.config)");
        }
        Optional<MigLayout> found = layouts.find(config);
        if (found.isEmpty()) {
            return unjudged(t, config, false, state, strategy, "layout '" + config + "' is unknown to the ledger:"
                    + " neither the GPU Operator's default mig-parted configuration nor a configured file names it");
        }
        MigLayout layout = found.get();
        MigNodeVersion status = MigViews.latestStatus(ordered, t);
        Map<String, Integer> allocatable = status == null ? null
                : MigViews.allocatable(status.allocatable(), labels, strategy);
        Map<String, Map<String, Integer>> instances = instances(runs, t);
        boolean perCard = layout.perCard().isPresent();
        List<Map<String, Integer>> expected = perCard ? layout.perCard().get()
                : layout.exactTotals().map(List::of).orElse(List.of());
        Boolean allocatableAgrees = allocatable == null ? null
                : MigViews.allocatableAgrees(layout, allocatable, labels, strategy);
        Boolean instancesAgree = instances == null ? null : MigViews.instancesAgree(layout, instances);
        if ("pending".equals(state)) {
            return new View(t, config, true, state, strategy, expected, perCard, allocatable, instances,
                    Verdict.UNJUDGED, "the MIG manager is applying the layout (nvidia.com/mig.config.state=pending)");
        }
        Verdict verdict;
        String reason;
        if (Boolean.FALSE.equals(allocatableAgrees) || Boolean.FALSE.equals(instancesAgree)) {
            verdict = Verdict.DISAGREE;
            reason = (Boolean.FALSE.equals(allocatableAgrees) ? "the allocatable MIG devices" : "")
                    + (Boolean.FALSE.equals(allocatableAgrees) && Boolean.FALSE.equals(instancesAgree) ? " and " : "")
                    + (Boolean.FALSE.equals(instancesAgree) ? "the MIG instances dcgm-exporter reports" : "")
                    + " disagree with layout '" + config + "'";
        } else if (allocatableAgrees != null || instancesAgree != null) {
            verdict = Verdict.AGREE;
            reason = "the views agree with layout '" + config + "'";
        } else {
            verdict = Verdict.UNJUDGED;
            reason = "no view to compare: " + (status == null ? "no status of the node stored" : "no card count"
                    + " (nvidia.com/gpu.count) to multiply the layout by") + ", and no MIG instance reported";
        }
        return new View(t, config, true, state, strategy, expected, perCard, allocatable, instances, verdict, reason);
    }

    private static View unjudged(Instant t, String layout, boolean known, String state, String strategy, String reason) {
        return new View(t, layout, known, state, strategy, List.of(), false, null, null, Verdict.UNJUDGED, reason);
    }

    /** The instances reported at {@code t}, by card and profile; null when none is. */
    private Map<String, Map<String, Integer>> instances(List<MigInstanceRun> runs, Instant t) {
        Map<String, Map<String, TreeSet<String>>> byCard = new TreeMap<>();
        for (MigInstanceRun r : runs) {
            if (r.presentAt(t, staleness)) {
                byCard.computeIfAbsent(r.gpuUuid(), g -> new TreeMap<>())
                        .computeIfAbsent(MigViews.canonical(r.profile()), p -> new TreeSet<>()).add(r.instance());
            }
        }
        if (byCard.isEmpty()) {
            return null;
        }
        Map<String, Map<String, Integer>> out = new TreeMap<>();
        byCard.forEach((card, profiles) -> {
            Map<String, Integer> counts = new TreeMap<>();
            profiles.forEach((p, ids) -> counts.put(p, ids.size()));
            out.put(card, counts);
        });
        return out;
    }
}
