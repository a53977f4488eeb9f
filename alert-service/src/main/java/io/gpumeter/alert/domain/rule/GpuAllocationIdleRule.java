package io.gpumeter.alert.domain.rule;

import io.gpumeter.alert.domain.Card;
import io.gpumeter.alert.domain.Finding;
import io.gpumeter.alert.domain.Holder;
import io.gpumeter.alert.domain.RuleResult;
import io.gpumeter.alert.domain.Severity;
import io.gpumeter.alert.domain.Snapshot;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Long idle allocation: a pod has held a unit of a card for longer than {@code duration}, and every measured minute
 * of the card's activity in that time stayed under {@code threshold}, with at least {@code minCoverage} of the
 * minutes measured. Activity is the suite's one rule ({@link Activity}), so the alert and the ledger's idle hours
 * judge a minute alike. A shared card with a busy neighbour is not idle, so this never blames a pod for idling on a
 * card someone else keeps busy; it can miss an idle pod there.
 */
public final class GpuAllocationIdleRule implements Rule {

    public static final String NAME = "GpuAllocationIdle";

    private final double threshold;
    private final Duration duration;
    private final double minCoverage;

    public GpuAllocationIdleRule(double threshold, Duration duration, double minCoverage) {
        this.threshold = threshold;
        this.duration = duration;
        this.minCoverage = minCoverage;
    }

    @Override
    public String alertname() {
        return NAME;
    }

    @Override
    public Severity severity() {
        return Severity.WARNING;
    }

    @Override
    public String condition() {
        return "a unit held for over " + duration + " on a card whose activity (SM_ACTIVE, else GR_ENGINE_ACTIVE, else "
                + "GPU_UTIL, minute by minute) stayed under "
                + Math.round(threshold * 100) + "% in every measured minute, " + Math.round(minCoverage * 100)
                + "% of minutes measured";
    }

    @Override
    public RuleResult evaluate(Snapshot snapshot) {
        Instant since = snapshot.now().minus(duration);
        List<Finding> found = new ArrayList<>();
        for (Card card : snapshot.cards().orElse(List.of())) {
            Map<Instant, Double> activity = Activity.perMinute(card, since);
            double coverage = activity.size() / (double) Math.max(1, duration.toMinutes());
            boolean idle = coverage >= minCoverage && activity.values().stream().allMatch(a -> a < threshold);
            if (!idle) {
                continue;
            }
            double peak = activity.values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
            for (Holder h : card.holders()) {
                if (h.since() != null && !h.since().isAfter(since)) {
                    found.add(Finding.of(NAME, severity()).label(Finding.NODE, card.node())
                            .label(Finding.GPU_UUID, card.gpuUuid()).label(Finding.NAMESPACE, h.namespace())
                            .label(Finding.POD, h.pod()).label(Finding.TENANT, h.tenant())
                            .describe(h.namespace() + "/" + h.pod() + " has held GPU " + card.gpuUuid() + " idle for over "
                                            + duration.toMinutes() + " minutes",
                                    "The card's activity peaked at " + Math.round(peak * 1000) / 10.0 + "% since " + since
                                            + ". Ask the owner to release it; it is billed as allocated all the same."));
                }
            }
        }
        return RuleResult.judge(NAME, found, Map.of("usage", snapshot.cards()));
    }
}
