package io.gpumeter.alert.domain.rule;

import io.gpumeter.alert.domain.Card;
import io.gpumeter.alert.domain.Finding;
import io.gpumeter.alert.domain.Holder;
import io.gpumeter.alert.domain.Incident;
import io.gpumeter.alert.domain.RuleResult;
import io.gpumeter.alert.domain.Severity;
import io.gpumeter.alert.domain.Snapshot;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Unhealthy GPU memory: the ledger holds an open "gpu-health" incident for the card — dcgm-exporter reports a failed
 * or pending row remap, double-bit ECC errors since the driver loaded, or pages waiting to be retired. The ledger
 * recovers the incident when every signal reads 0 again (after a GPU reset or driver reload), and the alert resolves
 * with it. Occupied or not, the card counts: the incident comes from the card's own series, not from its holders.
 */
public final class GpuHealthDegradedRule implements Rule {

    public static final String NAME = "GpuHealthDegraded";
    static final String CAUSE = "gpu-health";

    @Override
    public String alertname() {
        return NAME;
    }

    @Override
    public Severity severity() {
        return Severity.CRITICAL;
    }

    @Override
    public String condition() {
        return "the ledger has an open gpu-health incident for a card (row remap failed or pending, double-bit ECC "
                + "errors, pages pending retirement)";
    }

    @Override
    public RuleResult evaluate(Snapshot snapshot) {
        Map<String, Card> occupied = new HashMap<>();
        snapshot.cards().orElse(List.of()).forEach(c -> occupied.put(c.gpuUuid(), c));
        Map<String, Finding> found = new LinkedHashMap<>();
        for (Incident i : snapshot.incidents().orElse(List.<Incident>of())) {
            if (CAUSE.equals(i.cause()) && i.open()) {
                Finding f = finding(i, occupied.get(i.gpuUuid()));
                // The ledger keeps one open incident per card; should two arrive, the earlier (listed first) speaks.
                found.putIfAbsent(f.fingerprint(), f);
            }
        }
        // Holders only add to the description; the rule stands on the failures source alone.
        return RuleResult.judge(NAME, List.copyOf(found.values()), Map.of("failures", snapshot.incidents()));
    }

    private Finding finding(Incident i, Card card) {
        String evidence = i.evidence() == null || i.evidence().isBlank() ? "no evidence recorded" : i.evidence();
        String holders = card == null || card.holders().isEmpty() ? ""
                : " Held now by " + card.holders().stream().map(GpuHealthDegradedRule::holder)
                .distinct().collect(Collectors.joining(", ")) + ".";
        return Finding.of(NAME, severity()).label(Finding.NODE, i.node()).label(Finding.GPU_UUID, i.gpuUuid())
                .describe("GPU " + i.gpuUuid() + " on node " + i.node() + " reports unhealthy memory",
                        "The ledger holds an open gpu-health incident since " + i.startedAt() + ": " + evidence + "."
                                + holders + " Drain the card's pods, then reset the GPU or reload the driver; "
                                + "a failed row remap means a hardware ticket (RMA).");
    }

    private static String holder(Holder h) {
        return h.namespace() + "/" + h.pod();
    }
}
