package io.gpumeter.launcher.cli;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;

/**
 * A triage answer (alert-service's {@code GET /api/v1/triage}) as a terminal shows it: the path taken through the
 * tree (symptom → layer → cause, with its confidence), how far it reaches, the evidence with its time and the command
 * that shows it, what ruled the other causes out, the changes before it, what was checked, and the fix. Every string
 * of the answer is printed through {@link TerminalText}.
 */
public final class TriageView {

    private static final String INDENT = "  ";

    private TriageView() {
    }

    public static String render(JsonNode answer) {
        StringBuilder out = new StringBuilder();
        JsonNode subject = answer.path("subject");
        out.append(subjectLine(subject, answer.path("at"))).append('\n');
        String symptom = text(answer.path("symptom"));
        if (symptom.equals("NONE") || symptom.isEmpty()) {
            out.append("NONE: nothing wrong found").append('\n');
        } else {
            out.append(symptom).append(" → ").append(orUnknown(answer.path("layer"))).append(" → ")
                    .append(orUnknown(answer.path("cause")));
            if (!text(answer.path("confidence")).isEmpty()) {
                out.append(" (").append(text(answer.path("confidence"))).append(" confidence)");
            }
            out.append('\n');
        }
        scope(out, answer.path("scope"));
        recurrence(out, answer.path("recurrence"));
        evidence(out, answer.path("evidence"));
        alternatives(out, answer.path("alternatives"));
        changes(out, answer.path("changes"));
        list(out, "Checked", answer.path("checked"));
        fix(out, answer.path("fix"));
        return out.toString();
    }

    private static String subjectLine(JsonNode s, JsonNode at) {
        String kind = switch (text(s.path("kind"))) {
            case "POD" -> "pod";
            case "WORKLOAD" -> "workload";
            case "POD_GROUP" -> "pod group";
            case "NODE" -> "node";
            case "SERVICE" -> "service";
            default -> "subject";
        };
        String ns = text(s.path("namespace"));
        StringBuilder line = new StringBuilder(kind).append(' ').append(ns.isEmpty() ? "" : ns + "/")
                .append(text(s.path("name")));
        if (!text(s.path("cluster")).isEmpty()) {
            line.append(" · cluster ").append(text(s.path("cluster")));
        }
        if (!text(at).isEmpty()) {
            line.append(" · at ").append(text(at));
        }
        return line.toString();
    }

    private static void scope(StringBuilder out, JsonNode scope) {
        if (scope.isMissingNode() || scope.isNull()) {
            return;
        }
        List<String> alike = strings(scope.path("alike"));
        int others = scope.path("othersAlike").asInt(0);
        out.append("Scope: ").append(orUnknown(scope.path("level")));
        if (!alike.isEmpty() || others > 0) {
            out.append("; alike: ").append(String.join(", ", alike));
            if (others > 0) {
                out.append(alike.isEmpty() ? "" : ", and ").append(others).append(" of other tenants");
            }
        }
        out.append('\n');
    }

    private static void recurrence(StringBuilder out, JsonNode r) {
        if (r.isMissingNode() || r.isNull()) {
            return;
        }
        int times = r.path("last7d").asInt(0);
        out.append("Recurrence: ").append(times).append(times == 1 ? " time" : " times").append(" in 7 days");
        if (!text(r.path("firstSeen")).isEmpty()) {
            out.append(", first ").append(text(r.path("firstSeen")));
        }
        out.append('\n');
    }

    private static void evidence(StringBuilder out, JsonNode evidence) {
        if (!evidence.isArray() || evidence.isEmpty()) {
            return;
        }
        List<String[]> rows = new ArrayList<>();
        for (JsonNode e : evidence) {
            rows.add(new String[] {text(e.path("at")), text(e.path("source")), text(e.path("fact")), text(e.path("command"))});
        }
        int atWidth = width(rows, 0);
        int sourceWidth = width(rows, 1);
        out.append("\nEvidence\n");
        String hang = INDENT + " ".repeat(atWidth + sourceWidth + 4);
        for (String[] row : rows) {
            out.append(INDENT).append(pad(row[0], atWidth)).append("  ").append(pad(row[1], sourceWidth)).append("  ")
                    .append(row[2]).append('\n');
            if (!row[3].isEmpty()) {
                out.append(hang).append("$ ").append(row[3]).append('\n');
            }
        }
    }

    private static void alternatives(StringBuilder out, JsonNode alternatives) {
        if (!alternatives.isArray() || alternatives.isEmpty()) {
            return;
        }
        List<String[]> rows = new ArrayList<>();
        for (JsonNode a : alternatives) {
            rows.add(new String[] {text(a.path("cause")), text(a.path("ruledOutBy"))});
        }
        int width = width(rows, 0);
        out.append("\nRuled out\n");
        for (String[] row : rows) {
            out.append(INDENT).append(pad(row[0], width)).append("  ").append(row[1]).append('\n');
        }
    }

    private static void changes(StringBuilder out, JsonNode changes) {
        if (!changes.isArray() || changes.isEmpty()) {
            return;
        }
        out.append("\nChanges before\n");
        for (JsonNode c : changes) {
            out.append(INDENT).append(text(c.path("at"))).append("  ").append(text(c.path("kind")));
            for (String field : List.of("node", "component")) {
                if (!text(c.path(field)).isEmpty()) {
                    out.append("  ").append(text(c.path(field)));
                }
            }
            if (!text(c.path("from")).isEmpty() || !text(c.path("to")).isEmpty()) {
                out.append("  ").append(orNone(c.path("from"))).append(" → ").append(orNone(c.path("to")));
            }
            out.append('\n');
        }
    }

    private static void list(StringBuilder out, String title, JsonNode items) {
        List<String> lines = strings(items);
        if (lines.isEmpty()) {
            return;
        }
        out.append('\n').append(title).append('\n');
        lines.forEach(l -> out.append(INDENT).append("- ").append(l).append('\n'));
    }

    private static void fix(StringBuilder out, JsonNode fix) {
        if (fix.isMissingNode() || fix.isNull()) {
            return;
        }
        out.append("\nFix\n");
        // the runbook writes its steps one a line; each line is made safe on its own
        for (String line : fix.path("action").asText("").split("\n", -1)) {
            out.append(INDENT).append(TerminalText.safe(line)).append('\n');
        }
        if (!text(fix.path("verify")).isEmpty()) {
            out.append(INDENT).append("Verify: ").append(text(fix.path("verify"))).append('\n');
        }
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        if (array.isArray()) {
            array.forEach(n -> out.add(text(n)));
        }
        return out;
    }

    /** A value of the answer, safe to print; empty when absent. */
    private static String text(JsonNode node) {
        return node == null || node.isMissingNode() || node.isNull() ? "" : TerminalText.safe(node.asText());
    }

    private static String orUnknown(JsonNode node) {
        String t = text(node);
        return t.isEmpty() ? "?" : t;
    }

    private static String orNone(JsonNode node) {
        String t = text(node);
        return t.isEmpty() ? "(none)" : t;
    }

    private static int width(List<String[]> rows, int column) {
        return rows.stream().mapToInt(r -> r[column].length()).max().orElse(0);
    }

    private static String pad(String s, int width) {
        return s + " ".repeat(Math.max(0, width - s.length()));
    }
}
