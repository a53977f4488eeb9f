package io.gpumeter.alert.domain.rule;

import io.gpumeter.alert.domain.Card;
import io.gpumeter.alert.domain.Finding;
import io.gpumeter.alert.domain.Incident;
import io.gpumeter.alert.domain.Minute;
import io.gpumeter.alert.domain.RuleResult;
import io.gpumeter.alert.domain.Severity;
import io.gpumeter.alert.domain.Snapshot;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Driver anomaly: a hardware or driver Xid other than 79 appeared on a card within the window. dcgm-exporter keeps
 * the last Xid until the driver reloads, so a code that was already there before the window is not new; application
 * Xids (the workload's own fault) are ignored.
 */
public final class GpuDriverXidRule implements Rule {

    public static final String NAME = "GpuDriverXid";

    private final Duration window;
    private final Set<Integer> ignored;

    public GpuDriverXidRule(Duration window, Set<Integer> ignoredCodes) {
        this.window = window;
        this.ignored = Set.copyOf(ignoredCodes);
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
        return "a new Xid other than 0, 79 and " + ignored + " within " + window;
    }

    @Override
    public RuleResult evaluate(Snapshot snapshot) {
        Instant since = snapshot.now().minus(window);
        Map<String, Finding> found = new LinkedHashMap<>();
        for (Card card : snapshot.cards().orElse(List.of())) {
            int before = Xids.before(card, since);
            int newest = 0;
            for (Minute m : card.series(Xids.FIELD)) {
                int code = (int) m.max();
                if (!m.at().isBefore(since) && code != before && counts(code)) {
                    newest = code;
                }
            }
            if (newest != 0) {
                add(found, card.node(), card.gpuUuid(), newest, "dcgm-exporter");
            }
        }
        for (Incident i : snapshot.incidents().orElse(List.<Incident>of())) {
            Integer code = code(i.cause());
            if (code != null && counts(code) && !"workload".equals(i.rootCauseClass()) && !i.startedAt().isBefore(since)) {
                add(found, i.node(), i.gpuUuid(), code, "the kernel log");
            }
        }
        return RuleResult.judge(NAME, List.copyOf(found.values()),
                Map.of("usage", snapshot.cards(), "failures", snapshot.incidents()));
    }

    private boolean counts(int code) {
        return code != 0 && code != GpuFallenOffBusRule.XID_FALLEN_OFF_BUS && !ignored.contains(code);
    }

    private static Integer code(String cause) {
        if (cause == null || !cause.startsWith("xid-")) {
            return null;
        }
        try {
            return Integer.parseInt(cause.substring(4));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private void add(Map<String, Finding> found, String node, String gpu, int code, String reporter) {
        Finding f = Finding.of(NAME, severity()).label(Finding.NODE, node).label(Finding.GPU_UUID, gpu)
                .describe("GPU " + (gpu == null ? "?" : gpu) + " on node " + node + " reported Xid " + code,
                        "A driver or hardware fault (Xid " + code + ") was reported by " + reporter
                                + ". Collect the node's kernel log and the pods on the card; repeated Xids mean a hardware ticket.");
        found.putIfAbsent(f.fingerprint(), f);
    }
}
