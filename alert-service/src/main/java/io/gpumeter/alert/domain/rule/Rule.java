package io.gpumeter.alert.domain.rule;

import io.gpumeter.alert.domain.RuleResult;
import io.gpumeter.alert.domain.Severity;
import io.gpumeter.alert.domain.Snapshot;

/** A semantic alert: plain Java over one evaluation's snapshot, its thresholds fixed when it is built. */
public interface Rule {

    /** The alert's name, which is also its runbook entry. */
    String alertname();

    Severity severity();

    /** What the rule checks, with its thresholds, in one sentence. */
    String condition();

    RuleResult evaluate(Snapshot snapshot);
}
