package io.gpumeter.alert.domain.rule;

import io.gpumeter.alert.domain.Finding;
import io.gpumeter.alert.domain.LatencyWindow;
import io.gpumeter.alert.domain.RuleResult;
import io.gpumeter.alert.domain.Severity;
import io.gpumeter.alert.domain.SloState;
import io.gpumeter.alert.domain.Snapshot;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * TTFT or ITL p99 over its line: the last {@code windows} consecutive latency windows of a TTFT or ITL SLO each had
 * a p99 above the SLO's threshold. Evidence has to be taken on the spot, so the runbook captures a trace snapshot.
 */
public final class InferenceLatencyRule implements Rule {

    public static final String NAME = "InferenceLatencyP99High";

    private final int windows;

    public InferenceLatencyRule(int windows) {
        this.windows = windows;
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
        return "p99 of a TTFT or ITL SLO above its threshold in " + windows + " consecutive windows";
    }

    @Override
    public RuleResult evaluate(Snapshot snapshot) {
        List<Finding> found = new ArrayList<>();
        for (SloState slo : snapshot.slos().orElse(List.of())) {
            String sli = slo.sli() == null ? "" : slo.sli().toUpperCase(Locale.ROOT);
            List<LatencyWindow> recent = slo.windows();
            if (!(sli.equals("TTFT") || sli.equals("ITL")) || slo.thresholdMs() == null || recent.size() < windows) {
                continue;
            }
            List<LatencyWindow> last = recent.subList(recent.size() - windows, recent.size());
            boolean consecutive = true;
            for (int i = 1; i < last.size(); i++) {
                consecutive &= last.get(i - 1).end().equals(last.get(i).start());
            }
            if (consecutive && last.stream().allMatch(w -> w.p99Ms() > slo.thresholdMs())) {
                double worst = last.stream().mapToDouble(LatencyWindow::p99Ms).max().orElse(0);
                found.add(Finding.of(NAME, severity()).label("slo", slo.name()).label("service", slo.service())
                        .label(Finding.NAMESPACE, slo.namespace()).label(Finding.TENANT, slo.tenant())
                        .describe(sli + " p99 of " + service(slo) + " above " + slo.thresholdMs() + " ms for " + windows
                                        + " windows in a row",
                                "SLO " + slo.name() + ": the worst of the last " + windows + " windows had p99 " + worst
                                        + " ms. Capture a trace snapshot on the spot and look at same-card neighbours."));
            }
        }
        return RuleResult.judge(NAME, found, Map.of("slo", snapshot.slos()));
    }

    /** A service is known by its namespace and its name: the same name in another namespace is another service. */
    static String service(SloState slo) {
        return slo.namespace() == null || slo.service() == null ? slo.service() : slo.namespace() + "/" + slo.service();
    }
}
