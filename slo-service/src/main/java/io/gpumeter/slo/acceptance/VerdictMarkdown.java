package io.gpumeter.slo.acceptance;

import java.time.Instant;

/** The one-page verdict as Markdown: the same content as the HTML page, tables instead of charts. */
public final class VerdictMarkdown {

    private VerdictMarkdown() {
    }

    public static String render(long id, Instant createdAt, Run run) {
        StringBuilder m = new StringBuilder(4096);
        m.append("# ").append(run.name()).append("\n\n**Verdict: ").append(run.verdict()).append("** — ")
                .append(run.passed()).append(" passed, ").append(run.failed()).append(" failed, ").append(run.noData())
                .append(" without data. Window ").append(run.from()).append(" – ").append(run.to()).append("; run ")
                .append(id).append(", computed ").append(createdAt).append(".\n\n## Assertions\n\n")
                .append("| assertion | verdict | observed | limit | statement |\n|---|---|---:|---:|---|\n");
        for (Run.Outcome o : run.assertions()) {
            m.append("| ").append(cell(o.name())).append(" | ").append(o.verdict()).append(" | ")
                    .append(VerdictHtml.num(o.observed())).append(' ').append(o.unit()).append(" | ")
                    .append(cell(o.comparison())).append(' ').append(VerdictHtml.num(o.limit())).append(" | ")
                    .append(cell(o.statement())).append(" |\n");
        }
        m.append("\n## Matrix\n\n| class | workload | form | cell | metric | value | unit |\n|---|---|---|---|---|---:|---|\n");
        for (Run.MatrixRow r : run.matrix()) {
            m.append("| ").append(r.benchmarkClass()).append(" | ").append(cell(r.workload())).append(" | ")
                    .append(r.form()).append(" | ").append(r.cell()).append(" | ").append(r.metric()).append(" | ")
                    .append(VerdictHtml.num(r.value())).append(" | ").append(r.unit()).append(" |\n");
        }
        m.append("\n## Commitments\n\n| workload | form | cell | SLO | measured/GPU | committed/GPU | queue-wait ceiling |"
                + " degrades first |\n|---|---|---|---|---:|---:|---:|---|\n");
        for (Run.Commitment k : run.commitments()) {
            m.append("| ").append(cell(k.workload())).append(" | ").append(k.form()).append(" | ").append(k.cell())
                    .append(" | ").append(k.sloMs() == null ? "–" : k.sloSli() + " " + VerdictHtml.num(k.sloMs()) + " ms")
                    .append(" | ").append(VerdictHtml.num(k.throughputPerGpu())).append(" | ")
                    .append(VerdictHtml.num(k.committedPerGpu())).append(" | ")
                    .append(VerdictHtml.num(k.queueWaitCeilingSeconds())).append(" | ")
                    .append(cell(k.degradesFirst())).append(" |\n");
        }
        m.append("\n## Risks\n\n");
        (run.risks().isEmpty() ? java.util.List.of("none found") : run.risks()).forEach(r -> m.append("- ").append(r).append('\n'));
        m.append("\n## Recommended actions\n\n");
        (run.actions().isEmpty() ? java.util.List.of("none") : run.actions()).forEach(a -> m.append("- ").append(a).append('\n'));
        return m.toString();
    }

    private static String cell(String s) {
        return s == null ? "" : s.replace("|", "\\|").replace("\n", " ");
    }
}
