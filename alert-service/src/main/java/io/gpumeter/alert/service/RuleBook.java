package io.gpumeter.alert.service;

import io.gpumeter.alert.config.AlertConfig;
import io.gpumeter.alert.config.RulesConfig;
import io.gpumeter.alert.domain.RuleResult;
import io.gpumeter.alert.domain.Snapshot;
import io.gpumeter.alert.domain.rule.BudgetForecastOverrunRule;
import io.gpumeter.alert.domain.rule.CostAnomalyRule;
import io.gpumeter.alert.domain.rule.GpuAllocationIdleRule;
import io.gpumeter.alert.domain.rule.GpuDramBandwidthRule;
import io.gpumeter.alert.domain.rule.GpuDriverXidRule;
import io.gpumeter.alert.domain.rule.GpuFallenOffBusRule;
import io.gpumeter.alert.domain.rule.GpuHealthDegradedRule;
import io.gpumeter.alert.domain.rule.GpuMissingRule;
import io.gpumeter.alert.domain.rule.GpuOomRule;
import io.gpumeter.alert.domain.rule.GpuQuotaHardViolationRule;
import io.gpumeter.alert.domain.rule.HamiLedgerDriftRule;
import io.gpumeter.alert.domain.rule.IncidentUnreviewedRule;
import io.gpumeter.alert.domain.rule.InferenceLatencyRule;
import io.gpumeter.alert.domain.rule.Rule;
import io.gpumeter.alert.domain.rule.SloFastBurnRule;
import io.gpumeter.alert.review.ReviewConfig;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;

/** The semantic rules with their configured thresholds, and how far back their data must reach. */
// Built at start-up, so that a bad runbook or rule setting stops the service with the property's name.
@Startup
@ApplicationScoped
public class RuleBook {

    private final List<Rule> rules;
    private final Duration usageLookback;

    public RuleBook(AlertConfig config, ReviewConfig reviews) {
        RulesConfig r = config.rules();
        this.rules = List.of(
                new GpuFallenOffBusRule(),
                new GpuHealthDegradedRule(),
                new GpuDriverXidRule(r.driverXid().window(), r.driverXid().ignoredCodes()),
                new GpuMissingRule(r.missing().silence(), r.missing().fresh()),
                new GpuOomRule(r.oom().window(), r.oom().minCount()),
                new GpuAllocationIdleRule(r.idle().threshold(), r.idle().duration(), r.idle().minCoverage()),
                new GpuDramBandwidthRule(r.bandwidth().threshold(), r.bandwidth().forDuration(), r.bandwidth().fresh(),
                        Pattern.compile(r.bandwidth().inferenceNamespaces())),
                new InferenceLatencyRule(r.latency().consecutiveWindows()),
                new SloFastBurnRule(),
                new GpuQuotaHardViolationRule(r.violations().recent()),
                new HamiLedgerDriftRule(r.violations().recent()),
                new BudgetForecastOverrunRule(r.budget().tolerance(), r.budget().minElapsed()),
                new CostAnomalyRule(),
                new IncidentUnreviewedRule(reviews.unreviewedAfter()));
        // Xid needs the minutes before its window to tell a new code from a lasting one.
        this.usageLookback = max(r.idle().duration(), r.driverXid().window().multipliedBy(2),
                r.missing().silence().plusMinutes(30), r.bandwidth().forDuration().plus(r.bandwidth().fresh()));
    }

    public List<Rule> rules() {
        return rules;
    }

    public Duration usageLookback() {
        return usageLookback;
    }

    public List<RuleResult> evaluate(Snapshot snapshot) {
        return rules.stream().map(rule -> rule.evaluate(snapshot)).toList();
    }

    private static Duration max(Duration... durations) {
        Duration out = Duration.ZERO;
        for (Duration d : durations) {
            out = d.compareTo(out) > 0 ? d : out;
        }
        return out;
    }
}
