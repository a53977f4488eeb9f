package io.gpumeter.alert.domain;

import java.util.List;

/** The runbook as one Markdown page, an anchor per alert so that runbook_url#Alertname lands on its entry. */
public final class RunbookMarkdown {

    private RunbookMarkdown() {
    }

    public static String render(List<RunbookEntry> entries) {
        StringBuilder md = new StringBuilder("# gpumeter runbook\n\n");
        md.append("Which action for which alert. Actions run in their mode: `dry-run` records what would happen and changes ")
                .append("nothing, `enforce` acts, `off` does neither. Every action is audited at `GET /api/v1/actions`.\n\n");
        md.append("| alert | severity | raised by | automatic |\n|---|---|---|---|\n");
        for (RunbookEntry e : entries) {
            md.append("| [").append(e.alertname()).append("](#").append(e.alertname()).append(") | ").append(e.severity())
                    .append(" | ").append(e.raisedBy()).append(" | ").append(e.automatic() ? "yes" : "no").append(" |\n");
        }
        for (RunbookEntry e : entries) {
            md.append("\n<a id=\"").append(e.alertname()).append("\"></a>\n\n## ").append(e.alertname()).append("\n\n");
            md.append("**Severity:** ").append(e.severity()).append(" · **Raised by:** ").append(e.raisedBy())
                    .append(" · **Who:** ").append(e.who()).append("\n\n");
            if (e.condition() != null) {
                md.append("**Fires when:** ").append(e.condition()).append("\n\n");
            }
            md.append("**Meaning.** ").append(e.meaning()).append("\n\n");
            list(md, "Evidence to collect", e.evidence(), true);
            md.append("**Automatic actions**");
            if (e.actions().isEmpty()) {
                md.append(": none.\n\n");
            } else {
                md.append("\n\n| action | mode | undone on resolve | effect |\n|---|---|---|---|\n");
                for (RunbookEntry.Step s : e.actions()) {
                    md.append("| ").append(s.action()).append(" | ").append(s.mode()).append(" | ")
                            .append(s.undoOnResolve() ? "yes" : "no").append(" | ").append(s.effect()).append(" |\n");
                }
                md.append('\n');
            }
            list(md, "Manual steps", e.manual(), true);
            md.append("**Roll back.** ").append(e.rollback()).append("\n");
        }
        return md.toString();
    }

    private static void list(StringBuilder md, String title, List<String> items, boolean numbered) {
        md.append("**").append(title).append("**");
        if (items.isEmpty()) {
            md.append(": none.\n\n");
            return;
        }
        md.append("\n\n");
        for (int i = 0; i < items.size(); i++) {
            md.append(numbered ? (i + 1) + ". " : "- ").append(items.get(i)).append('\n');
        }
        md.append('\n');
    }
}
