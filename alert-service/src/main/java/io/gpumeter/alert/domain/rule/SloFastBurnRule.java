package io.gpumeter.alert.domain.rule;

import io.gpumeter.alert.domain.Finding;
import io.gpumeter.alert.domain.RuleResult;
import io.gpumeter.alert.domain.Severity;
import io.gpumeter.alert.domain.SloState;
import io.gpumeter.alert.domain.Snapshot;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** SLO fast burn: slo-service reports an SLO burning its error budget at the page rate (14.4× over 1 h and 5 m). */
public final class SloFastBurnRule implements Rule {

    public static final String NAME = "SloErrorBudgetFastBurn";

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
        return "an SLO's fast-burn condition holds (14.4x over 1h and 5m, as slo-service computes it)";
    }

    @Override
    public RuleResult evaluate(Snapshot snapshot) {
        List<Finding> found = new ArrayList<>();
        for (SloState slo : snapshot.slos().orElse(List.of())) {
            if (slo.fastBurn()) {
                found.add(Finding.of(NAME, severity()).label("slo", slo.name()).label("service", slo.service())
                        .label(Finding.NAMESPACE, slo.namespace()).label(Finding.TENANT, slo.tenant())
                        .describe("SLO " + slo.name() + " burns its error budget fast"
                                        + (slo.burnRate() == null ? "" : " (" + slo.burnRate() + "x)"),
                                "At this rate 2% of a 30-day budget goes in an hour. Find what changed: deploys, "
                                        + "neighbours on the service's cards, throttling."));
            }
        }
        return RuleResult.judge(NAME, found, Map.of("slo", snapshot.slos()));
    }
}
