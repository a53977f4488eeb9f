package io.gpumeter.alert.service;

import io.gpumeter.alert.config.ActionsConfig;
import io.gpumeter.alert.config.AlertConfig;
import io.gpumeter.alert.domain.ActionKind;
import io.gpumeter.alert.domain.ActionMode;
import io.gpumeter.alert.domain.RunbookEntry;
import io.gpumeter.alert.domain.Severity;
import io.gpumeter.alert.domain.rule.Rule;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The runbook as configured (gpumeter.alert.runbook.<alert>.*), checked at start-up: unknown actions, modes or
 * severities stop the service with a message naming the property.
 */
// Built at start-up, so that a bad runbook or rule setting stops the service with the property's name.
@Startup
@ApplicationScoped
public class Runbook {

    private final Map<String, RunbookEntry> entries = new TreeMap<>();
    private final Map<String, List<ActionKind>> actions = new TreeMap<>();
    private final Map<String, Set<ActionKind>> undo = new TreeMap<>();
    private final Map<ActionKind, ActionMode> modes = new EnumMap<>(ActionKind.class);
    private final Map<ActionKind, Integer> limits = new EnumMap<>(ActionKind.class);

    public Runbook(AlertConfig config, RuleBook rules) {
        ActionsConfig a = config.actions();
        settings(ActionKind.CORDON, a.cordon());
        settings(ActionKind.FREEZE_DECODE, a.freezeDecode());
        settings(ActionKind.ANNOTATE, a.annotate());
        settings(ActionKind.TRACE_SNAPSHOT, a.traceSnapshot());
        settings(ActionKind.TICKET, a.ticket());
        Map<String, Rule> own = new TreeMap<>();
        rules.rules().forEach(r -> own.put(r.alertname(), r));
        config.runbook().forEach((alertname, e) -> {
            String at = "gpumeter.alert.runbook." + alertname;
            List<ActionKind> act = kinds(at + ".actions", e.actions().orElse(List.of()));
            Set<ActionKind> back = EnumSet.noneOf(ActionKind.class);
            back.addAll(kinds(at + ".undo-on-resolve", e.undoOnResolve().orElse(List.of())));
            actions.put(alertname, act);
            undo.put(alertname, back);
            List<RunbookEntry.Step> steps = act.stream().map(k -> new RunbookEntry.Step(k.label(), modes.get(k).label(),
                    back.contains(k), effect(k, a))).toList();
            Rule rule = own.get(alertname);
            String severity;
            try {
                severity = Severity.parse(rule != null ? rule.severity().label() : e.severity()).label();
            } catch (IllegalArgumentException ex) {
                throw new IllegalArgumentException(at + ".severity: " + ex.getMessage());
            }
            entries.put(alertname, new RunbookEntry(alertname, severity, rule != null ? "alert-service" : "prometheus",
                    rule == null ? null : rule.condition(), e.meaning(), e.evidence().orElse(List.of()), steps,
                    e.manual().orElse(List.of()), e.rollback(), e.who(),
                    act.stream().anyMatch(k -> modes.get(k) == ActionMode.ENFORCE)));
        });
        for (Rule rule : rules.rules()) {
            if (!entries.containsKey(rule.alertname())) {
                throw new IllegalArgumentException("gpumeter.alert.runbook." + rule.alertname()
                        + ".meaning: every alert alert-service raises needs a runbook entry");
            }
        }
    }

    public List<RunbookEntry> entries() {
        return List.copyOf(entries.values());
    }

    public List<ActionKind> actions(String alertname) {
        return actions.getOrDefault(alertname, List.of());
    }

    public boolean undoesOnResolve(String alertname, ActionKind kind) {
        return undo.getOrDefault(alertname, Set.of()).contains(kind);
    }

    public String rollback(String alertname) {
        RunbookEntry e = entries.get(alertname);
        return e == null ? "" : e.rollback();
    }

    public ActionMode mode(ActionKind kind) {
        return modes.get(kind);
    }

    public int maxPerHour(ActionKind kind) {
        return limits.get(kind);
    }

    private void settings(ActionKind kind, ActionsConfig.Action action) {
        try {
            modes.put(kind, ActionMode.parse(action.mode()));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("gpumeter.alert.actions." + kind.label() + ".mode: " + e.getMessage());
        }
        if (action.maxPerHour() < 0) {
            throw new IllegalArgumentException("gpumeter.alert.actions." + kind.label() + ".max-per-hour must be 0 or more");
        }
        limits.put(kind, action.maxPerHour());
    }

    private static List<ActionKind> kinds(String property, List<String> names) {
        List<ActionKind> out = new ArrayList<>();
        for (String name : names) {
            try {
                ActionKind k = ActionKind.parse(name);
                if (!out.contains(k)) {
                    out.add(k);
                }
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(property + ": " + e.getMessage());
            }
        }
        return out;
    }

    private static String effect(ActionKind kind, ActionsConfig a) {
        return switch (kind) {
            case CORDON -> "marks the node unschedulable (annotation gpumeter.io/cordoned-by); never more than "
                    + Math.round(a.cordon().maxShare() * 100) + "% of the GPU nodes (at least " + a.cordon().floor() + ")";
            case FREEZE_DECODE -> "labels the node gpumeter.io/decode-frozen=true, which decode workloads avoid with node "
                    + "affinity (gpumeter.io/decode-frozen NotIn [\"true\"])" + (a.freezeDecode().taint()
                    ? "; also taints it gpumeter.io/decode-frozen=true:NoSchedule, which blocks every pod without a toleration" : "");
            case ANNOTATE -> "annotates the node gpumeter.io/alert-<alertname> with the summary and start";
            case TRACE_SNAPSHOT -> "starts a Job on the node that records " + a.traceSnapshot().seconds()
                    + " s of DCGM profiling counters";
            case TICKET -> a.ticket().url().map(u -> "posts the alert to " + u.getHost() + " and its resolution later")
                    .orElse("posts the alert to the ticket webhook (none configured: skipped)");
        };
    }
}
