package io.gpumeter.slo.acceptance;

import io.gpumeter.common.text.MarkdownText;

import java.time.Instant;
import java.util.List;

/**
 * The one-page verdict as Markdown: the same content as the HTML page, tables instead of charts — a section per
 * quadrant with its assertions and its matrix figures, then commitments, risks and actions.
 */
public final class VerdictMarkdown {

    private VerdictMarkdown() {
    }

    public static String render(long id, Instant createdAt, Run run) {
        StringBuilder m = new StringBuilder(4096);
        m.append("# ").append(text(run.name())).append("\n\n**Verdict: ").append(text(run.verdict())).append("** — ")
                .append(run.passed()).append(" passed, ").append(run.failed()).append(" failed, ").append(run.noData())
                .append(" without data. Window ").append(run.from()).append(" – ").append(run.to()).append("; run ")
                .append(id).append(", computed ").append(createdAt).append(".\n");
        for (VerdictSections.Section s : VerdictSections.of(run)) {
            section(m, s);
        }
        m.append("\n## Commitments\n\n| workload | form | cell | SLO | measured/GPU | jitter | failures | peaks |"
                + " committed/GPU | queue-wait ceiling | degrades first | policy |\n"
                + "|---|---|---|---|---:|---:|---:|---:|---:|---:|---|---|\n");
        for (Run.Commitment k : run.commitments()) {
            m.append("| ").append(text(k.workload())).append(" | ").append(text(k.form())).append(" | ")
                    .append(text(k.cell())).append(" | ")
                    .append(k.sloMs() == null ? "–" : text(k.sloSli()) + " " + VerdictHtml.num(k.sloMs()) + " ms")
                    .append(" | ").append(VerdictHtml.num(k.throughputPerGpu())).append(" | ")
                    .append(VerdictHtml.num(k.jitterMargin())).append(" | ").append(VerdictHtml.num(k.failureMargin()))
                    .append(" | ").append(VerdictHtml.num(k.peakMargin())).append(" | ")
                    .append(VerdictHtml.num(k.committedPerGpu())).append(" | ")
                    .append(VerdictHtml.num(k.queueWaitCeilingSeconds())).append(" | ")
                    .append(text(k.degradesFirst())).append(" | ").append(text(k.policy())).append(" |\n");
        }
        m.append("\n## Risks\n\n");
        (run.risks().isEmpty() ? List.of("none found") : run.risks()).forEach(r -> m.append("- ").append(text(r)).append('\n'));
        m.append("\n## Recommended actions\n\n");
        (run.actions().isEmpty() ? List.of("none") : run.actions()).forEach(a -> m.append("- ").append(text(a)).append('\n'));
        return m.toString();
    }

    /** A quadrant: its verdict and tally, its assertions, then its figures of the matrix. */
    private static void section(StringBuilder m, VerdictSections.Section s) {
        m.append("\n## ").append(text(s.title())).append(s.verdict() == null ? "" : " — " + text(s.verdict()))
                .append("\n\n").append(text(s.covers())).append(": ").append(s.tally()).append(".\n");
        if (!s.assertions().isEmpty()) {
            m.append("\n| assertion | verdict | observed | limit | statement |\n|---|---|---:|---:|---|\n");
            for (Run.Outcome o : s.assertions()) {
                m.append("| ").append(text(o.name())).append(" | ").append(text(o.verdict())).append(" | ")
                        .append(VerdictHtml.num(o.observed())).append(' ').append(text(o.unit())).append(" | ")
                        .append(text(o.comparison())).append(' ').append(VerdictHtml.num(o.limit())).append(" | ")
                        .append(text(o.statement())).append(" |\n");
            }
        }
        if (!s.figures().isEmpty()) {
            m.append("\n| class | workload | form | cell | metric | value | unit |\n|---|---|---|---|---|---:|---|\n");
            for (Run.MatrixRow r : s.figures()) {
                m.append("| ").append(text(r.benchmarkClass())).append(" | ").append(text(r.workload())).append(" | ")
                        .append(text(r.form())).append(" | ").append(text(r.cell())).append(" | ")
                        .append(text(r.metric())).append(" | ").append(VerdictHtml.num(r.value())).append(" | ")
                        .append(text(r.unit())).append(" |\n");
            }
        }
    }

    /** Text as Markdown shows it literally (names, risks and the cluster's messages come from plans and the cluster). */
    static String text(String s) {
        return MarkdownText.literal(s);
    }
}
