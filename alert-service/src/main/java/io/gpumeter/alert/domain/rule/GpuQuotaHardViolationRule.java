package io.gpumeter.alert.domain.rule;

import io.gpumeter.alert.domain.Finding;
import io.gpumeter.alert.domain.ViolationEpisode;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Hard quota violation: a HARD (sustained over the allocation) or BYPASS (use with no allocation) episode of the
 * ledger that lasts, or ended within {@code recent}.
 */
public final class GpuQuotaHardViolationRule extends ViolationEpisodeRule {

    public static final String NAME = "GpuQuotaHardViolation";

    public GpuQuotaHardViolationRule(Duration recent) {
        super(NAME, List.of("HARD", "BYPASS"), recent);
    }

    @Override
    Finding finding(ViolationEpisode v, Map<String, String> nodes, Map<String, String> tenants) {
        return Finding.of(NAME, severity()).label(Finding.NODE, nodes.get(v.gpuUuid()))
                .label(Finding.GPU_UUID, v.gpuUuid()).label(Finding.NAMESPACE, v.namespace())
                .label(Finding.POD, v.pod()).label(Finding.TENANT, tenants.get(v.namespace()))
                .describe(v.namespace() + "/" + v.pod() + " " + ("BYPASS".equals(v.kind())
                                ? "uses GPU " + v.gpuUuid() + " without an allocation"
                                : "uses more " + v.resource() + " on GPU " + v.gpuUuid() + " than it was allocated"),
                        v.kind() + " episode since " + v.start()
                                + (v.peakRatio() == null ? "" : ", peak " + v.peakRatio() + "x the allocation")
                                + ". Tell the owner; if it persists, enforce the limit or evict the pod.");
    }
}
