package io.gpumeter.alert.domain;

import java.util.List;

/**
 * What to do for one alert: what it means, the evidence to collect, the actions that run by themselves (each in its
 * mode), the steps for a person, how to roll back, and who acts.
 *
 * @param raisedBy  "alert-service" for its own rules, "prometheus" for the rules in k8s/monitoring
 * @param condition the rule's condition with its thresholds, when alert-service raises it
 * @param automatic whether at least one action is enforced, i.e. something happens without a person
 */
public record RunbookEntry(String alertname, String severity, String raisedBy, String condition, String meaning,
                           List<String> evidence, List<Step> actions, List<String> manual, String rollback, String who,
                           boolean automatic) {

    /**
     * One automatic action.
     *
     * @param undoOnResolve whether gpumeter undoes it when the alert resolves (only what gpumeter itself did)
     */
    public record Step(String action, String mode, boolean undoOnResolve, String effect) {
    }
}
