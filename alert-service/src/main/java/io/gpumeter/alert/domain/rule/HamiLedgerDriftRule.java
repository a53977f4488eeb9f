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
 * HAMi ledger drift: HAMi's per-container memory books and the card's FB_USED disagree beyond the ledger's
 * tolerance, lasting or within {@code recent}: the first sign that the quota system is losing trust.
 */
public final class HamiLedgerDriftRule implements Rule {

    public static final String NAME = "HamiLedgerDrift";

    private final Duration recent;

    public HamiLedgerDriftRule(Duration recent) {
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
        return "a DRIFT episode lasting, or ended within " + recent;
    }

    @Override
    public RuleResult evaluate(Snapshot snapshot) {
        Instant since = snapshot.now().minus(recent);
        Map<String, String> nodes = snapshot.nodeOfCard();
        Map<String, Finding> found = new LinkedHashMap<>();
        for (ViolationEpisode v : snapshot.violations().orElse(List.of())) {
            if ("DRIFT".equals(v.kind()) && v.lastsInto(since)) {
                Finding f = Finding.of(NAME, severity()).label(Finding.NODE, nodes.get(v.gpuUuid()))
                        .label(Finding.GPU_UUID, v.gpuUuid())
                        .describe("HAMi's memory books for GPU " + v.gpuUuid() + " disagree with the card",
                                "Drift since " + v.start() + (v.peakRatio() == null ? "" : ", gap " + v.peakRatio() + " of FB_USED")
                                        + ". Compare hami.io/vgpu-devices-allocated with nvidia-smi; restart HAMi's device plugin "
                                        + "on the node if the books stay wrong.");
                found.putIfAbsent(f.fingerprint(), f);
            }
        }
        return RuleResult.judge(NAME, List.copyOf(found.values()),
                Map.of("violations", snapshot.violations(), "usage", snapshot.cards()));
    }
}
