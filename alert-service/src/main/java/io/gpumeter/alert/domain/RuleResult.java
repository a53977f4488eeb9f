package io.gpumeter.alert.domain;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One rule's outcome: its status, a note on sources that were missing or failed, and what fires.
 */
public record RuleResult(String alertname, RuleStatus status, String note, List<Finding> findings) {

    public RuleResult {
        findings = List.copyOf(findings);
    }

    /**
     * Judges findings by the sources they came from: every source absent → inactive; any failed → held (findings
     * still count, nothing resolves); else firing or OK, noting absent sources.
     */
    public static RuleResult judge(String alertname, List<Finding> findings, Map<String, Source<?>> sources) {
        List<String> absent = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        new TreeMap<>(sources).forEach((name, source) -> {
            if (source instanceof Source.Absent<?> a) {
                absent.add(name + " source not available (" + a.reason() + ")");
            } else if (source instanceof Source.Failed<?> f) {
                failed.add(name + " source failed (" + f.reason() + ")");
            }
        });
        if (!sources.isEmpty() && absent.size() == sources.size()) {
            return new RuleResult(alertname, RuleStatus.INACTIVE, String.join("; ", absent), List.of());
        }
        List<String> notes = new ArrayList<>(failed);
        notes.addAll(absent);
        String note = notes.isEmpty() ? null : String.join("; ", notes);
        if (!failed.isEmpty()) {
            return new RuleResult(alertname, RuleStatus.HELD, note, findings);
        }
        return new RuleResult(alertname, findings.isEmpty() ? RuleStatus.OK : RuleStatus.FIRING, note, findings);
    }
}
