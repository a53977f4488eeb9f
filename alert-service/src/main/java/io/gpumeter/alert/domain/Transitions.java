package io.gpumeter.alert.domain;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one evaluation changes: alerts that start firing, firing alerts seen again (their annotations refreshed),
 * and firing alerts that resolve. A firing alert of a held rule (its source failed) neither refreshes nor resolves.
 */
public record Transitions(List<Finding> opened, List<Finding> refreshed, List<Episode> resolved) {

    public static Transitions plan(List<RuleResult> results, List<Episode> firing) {
        Map<String, Finding> findings = new LinkedHashMap<>();
        Map<String, RuleStatus> status = new HashMap<>();
        for (RuleResult r : results) {
            status.put(r.alertname(), r.status());
            r.findings().forEach(f -> findings.putIfAbsent(f.fingerprint(), f));
        }
        Map<String, Episode> open = new HashMap<>();
        firing.forEach(e -> open.put(e.fingerprint(), e));
        List<Finding> opened = new ArrayList<>();
        List<Finding> refreshed = new ArrayList<>();
        findings.forEach((fp, f) -> (open.containsKey(fp) ? refreshed : opened).add(f));
        List<Episode> resolved = new ArrayList<>();
        for (Episode e : firing) {
            if (!findings.containsKey(e.fingerprint()) && status.get(e.alertname()) != RuleStatus.HELD) {
                resolved.add(e);
            }
        }
        return new Transitions(opened, refreshed, resolved);
    }
}
