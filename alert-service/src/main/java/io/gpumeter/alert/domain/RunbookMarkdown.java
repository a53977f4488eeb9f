package io.gpumeter.alert.domain;

import java.util.List;

/**
 * The runbook as one Markdown page, an anchor per alert so that runbook_url#Alertname lands on its entry, and one per
 * cause ({@code #cluster-full}) for the fix a triage quotes.
 */
public final class RunbookMarkdown {

    private RunbookMarkdown() {
    }

    /** The alerts' entries (none: no alert section), then the causes' (none: no cause section). */
    public static String render(List<RunbookEntry> entries, List<CauseEntry> causes) {
        StringBuilder md = new StringBuilder("# gpumeter runbook\n\n");
        if (!entries.isEmpty()) {
            alerts(md, entries);
        }
        if (!causes.isEmpty()) {
            causes(md, causes);
        }
        return md.toString();
    }

    private static void causes(StringBuilder md, List<CauseEntry> causes) {
        md.append("\n## Causes\n\nWhat to do when a triage (`GET /api/v1/triage`) names a cause, smallest step first; ")
                .append("its `fix` quotes the entry. An Xid without an entry of its own takes its class's.\n\n");
        md.append("| cause | kind | layer |\n|---|---|---|\n");
        for (CauseEntry c : causes) {
            md.append("| [").append(c.cause()).append("](#").append(c.cause()).append(") | ").append(c.kind())
                    .append(" | ").append(c.layer()).append(" |\n");
        }
        for (CauseEntry c : causes) {
            md.append("\n<a id=\"").append(c.cause()).append("\"></a>\n\n### ").append(c.cause()).append("\n\n");
            md.append("**Kind:** ").append(c.kind()).append(" · **Layer:** ").append(c.layer()).append("\n\n");
            list(md, "Steps, smallest first", c.steps(), true);
            md.append("**Verify.** ").append(c.verify()).append("\n");
        }
    }

    private static void alerts(StringBuilder md, List<RunbookEntry> entries) {
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
