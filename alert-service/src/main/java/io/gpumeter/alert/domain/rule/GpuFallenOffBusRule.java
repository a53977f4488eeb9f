package io.gpumeter.alert.domain.rule;

import io.gpumeter.alert.domain.Card;
import io.gpumeter.alert.domain.Finding;
import io.gpumeter.alert.domain.Incident;
import io.gpumeter.alert.domain.RuleResult;
import io.gpumeter.alert.domain.Severity;
import io.gpumeter.alert.domain.Snapshot;
import io.gpumeter.alert.domain.Source;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * GPU lost: the card's newest reported Xid is 79 (fallen off the bus), or the ledger holds an open "gpu-lost"
 * incident for it (Xid 79 from the kernel log, or the card gone from the node's inventory).
 */
public final class GpuFallenOffBusRule implements Rule {

    public static final String NAME = "GpuFallenOffBus";
    static final int XID_FALLEN_OFF_BUS = 79;

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
        return "the newest Xid of an occupied card is 79, or the ledger has an open gpu-lost incident";
    }

    @Override
    public RuleResult evaluate(Snapshot snapshot) {
        Map<String, Finding> found = new LinkedHashMap<>();
        for (Card card : snapshot.cards().orElse(List.of())) {
            if (Xids.latest(card).orElse(0) == XID_FALLEN_OFF_BUS) {
                add(found, card.node(), card.gpuUuid(), "dcgm-exporter reports Xid 79 for the card");
            }
        }
        for (Incident i : snapshot.incidents().orElse(List.<Incident>of())) {
            if ("gpu-lost".equals(i.cause()) && i.open()) {
                add(found, i.node(), i.gpuUuid(), "the ledger holds an open gpu-lost incident since " + i.startedAt());
            }
        }
        return RuleResult.judge(NAME, List.copyOf(found.values()),
                Map.of("usage", snapshot.cards(), "failures", snapshot.incidents()));
    }

    private void add(Map<String, Finding> found, String node, String gpu, String evidence) {
        Finding f = Finding.of(NAME, severity()).label(Finding.NODE, node).label(Finding.GPU_UUID, gpu)
                .describe("GPU " + gpu + " on node " + node + " has fallen off the bus (Xid 79)",
                        evidence + ". Cordon the node, drain its GPU pods and open a hardware ticket.");
        found.putIfAbsent(f.fingerprint(), f);
    }
}
