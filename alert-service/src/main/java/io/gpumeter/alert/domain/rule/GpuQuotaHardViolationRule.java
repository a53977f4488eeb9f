package io.gpumeter.alert.domain.rule;

import io.gpumeter.alert.domain.Finding;
import io.gpumeter.alert.domain.RuleResult;
import io.gpumeter.alert.domain.Severity;
import io.gpumeter.alert.domain.Snapshot;
import io.gpumeter.alert.domain.ViolationEpisode;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Hard quota violation: a HARD (sustained over the allocation) or BYPASS (use with no allocation) episode of the
 * ledger that lasts, or ended within {@code recent}.
 */
public final class GpuQuotaHardViolationRule implements Rule {

    public static final String NAME = "GpuQuotaHardViolation";

    private final Duration recent;

    public GpuQuotaHardViolationRule(Duration recent) {
        this.recent = recent;
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
        return "a HARD or BYPASS violation episode lasting, or ended within " + recent;
    }

    @Override
    public RuleResult evaluate(Snapshot snapshot) {
        Instant since = snapshot.now().minus(recent);
        Map<String, String> nodes = snapshot.nodeOfCard();
        Map<String, String> tenants = snapshot.tenantOfNamespace();
        Map<String, Finding> found = new LinkedHashMap<>();
        for (ViolationEpisode v : snapshot.violations().orElse(List.of())) {
            if (("HARD".equals(v.kind()) || "BYPASS".equals(v.kind())) && v.lastsInto(since)) {
                Finding f = Finding.of(NAME, severity()).label(Finding.NODE, nodes.get(v.gpuUuid()))
                        .label(Finding.GPU_UUID, v.gpuUuid()).label(Finding.NAMESPACE, v.namespace())
                        .label(Finding.POD, v.pod()).label(Finding.TENANT, tenants.get(v.namespace()))
                        .describe(v.namespace() + "/" + v.pod() + " " + ("BYPASS".equals(v.kind())
                                        ? "uses GPU " + v.gpuUuid() + " without an allocation"
                                        : "uses more " + v.resource() + " on GPU " + v.gpuUuid() + " than it was allocated"),
                                v.kind() + " episode since " + v.start()
                                        + (v.peakRatio() == null ? "" : ", peak " + v.peakRatio() + "x the allocation")
                                        + ". Tell the owner; if it persists, enforce the limit or evict the pod.");
                found.putIfAbsent(f.fingerprint(), f);
            }
        }
        return RuleResult.judge(NAME, List.copyOf(found.values()),
                Map.of("violations", snapshot.violations(), "usage", snapshot.cards()));
    }
}
