package io.gpumeter.alert.domain.rule;

import io.gpumeter.alert.domain.Card;
import io.gpumeter.alert.domain.Finding;
import io.gpumeter.alert.domain.Holder;
import io.gpumeter.alert.domain.Minute;
import io.gpumeter.alert.domain.RuleResult;
import io.gpumeter.alert.domain.Severity;
import io.gpumeter.alert.domain.Snapshot;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Bandwidth saturation on inference: DRAM_ACTIVE above {@code threshold} in each of the last {@code forMinutes}
 * consecutive minutes (the newest no older than {@code fresh}) on a card held by an inference workload, whose
 * namespace matches the configured pattern. Adding decode-type tenants there makes every one of them slower.
 */
public final class GpuDramBandwidthRule implements Rule {

    public static final String NAME = "GpuDramBandwidthSaturated";
    static final String FIELD = "DRAM_ACTIVE";

    private final double threshold;
    private final Duration forDuration;
    private final Duration fresh;
    private final Pattern inference;

    public GpuDramBandwidthRule(double threshold, Duration forDuration, Duration fresh, Pattern inferenceNamespaces) {
        this.threshold = threshold;
        this.forDuration = forDuration;
        this.fresh = fresh;
        this.inference = inferenceNamespaces;
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
        return "DRAM_ACTIVE above " + Math.round(threshold * 100) + "% for " + forDuration
                + " on a card held by a namespace matching '" + inference.pattern() + "'";
    }

    @Override
    public RuleResult evaluate(Snapshot snapshot) {
        List<Finding> found = new ArrayList<>();
        Instant freshSince = snapshot.now().minus(fresh);
        int minutes = (int) Math.max(1, forDuration.toMinutes());
        for (Card card : snapshot.cards().orElse(List.of())) {
            List<Holder> serving = card.holders().stream()
                    .filter(h -> h.namespace() != null && inference.matcher(h.namespace()).matches()).toList();
            List<Minute> dram = card.series(FIELD);
            if (serving.isEmpty() || dram.size() < minutes) {
                continue;
            }
            List<Minute> last = dram.subList(dram.size() - minutes, dram.size());
            boolean consecutive = Duration.between(last.get(0).at(), last.get(minutes - 1).at()).toMinutes() == minutes - 1;
            boolean current = !last.get(minutes - 1).at().isBefore(freshSince);
            if (consecutive && current && last.stream().allMatch(m -> m.mean() > threshold)) {
                double low = last.stream().mapToDouble(Minute::mean).min().orElse(0);
                Holder only = serving.stream().map(Holder::namespace).distinct().count() == 1 ? serving.get(0) : null;
                found.add(Finding.of(NAME, severity()).label(Finding.NODE, card.node()).label(Finding.GPU_UUID, card.gpuUuid())
                        .label(Finding.NAMESPACE, only == null ? null : only.namespace())
                        .label(Finding.TENANT, only == null ? null : only.tenant())
                        .describe("DRAM bandwidth of GPU " + card.gpuUuid() + " on inference node " + card.node() + " above "
                                        + Math.round(threshold * 100) + "% for " + minutes + " minutes",
                                "DRAM_ACTIVE stayed at or above " + Math.round(low * 1000) / 10.0 + "%. Freeze scheduling of new "
                                        + "decode-type workloads onto node " + card.node() + " until it falls back."));
            }
        }
        return RuleResult.judge(NAME, found, Map.of("usage", snapshot.cards()));
    }
}
