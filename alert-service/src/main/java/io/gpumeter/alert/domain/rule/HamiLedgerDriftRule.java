package io.gpumeter.alert.domain.rule;

import io.gpumeter.alert.domain.Finding;
import io.gpumeter.alert.domain.ViolationEpisode;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * HAMi ledger drift: HAMi's per-container memory books and the card's FB_USED disagree beyond the ledger's
 * tolerance, lasting or within {@code recent}: the first sign that the quota system is losing trust.
 */
public final class HamiLedgerDriftRule extends ViolationEpisodeRule {

    public static final String NAME = "HamiLedgerDrift";

    public HamiLedgerDriftRule(Duration recent) {
        super(NAME, List.of("DRIFT"), recent);
    }

    @Override
    Finding finding(ViolationEpisode v, Map<String, String> nodes, Map<String, String> tenants) {
        return Finding.of(NAME, severity()).label(Finding.NODE, nodes.get(v.gpuUuid()))
                .label(Finding.GPU_UUID, v.gpuUuid())
                .describe("HAMi's memory books for GPU " + v.gpuUuid() + " disagree with the card",
                        "Drift since " + v.start() + (v.peakRatio() == null ? "" : ", gap " + v.peakRatio() + " of FB_USED")
                                + ". Compare hami.io/vgpu-devices-allocated with nvidia-smi; restart HAMi's device plugin "
                                + "on the node if the books stay wrong.");
    }
}
