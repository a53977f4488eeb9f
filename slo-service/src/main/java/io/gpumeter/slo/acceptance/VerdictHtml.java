package io.gpumeter.slo.acceptance;

import io.gpumeter.common.text.HtmlText;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The one-page verdict as a self-contained HTML page: inline CSS, inline SVG, no script and nothing fetched, laid out
 * to print on one A4 page. The verdict is on top; then the four quadrants side by side in pairs, each with its own
 * verdict, its clauses (a bar of each figure against its limit) and its figures of the matrix pivoted to one row per
 * cell; then the commitments, risks and recommended actions.
 */
public final class VerdictHtml {

    /** Lists longer than this are cut on the page (the pack holds them whole), so the page stays one page. */
    static final int MAX_LINES = 6;
    /** A clause's bar: its width in pixels, of which the figure or its limit, whichever is larger, takes 90%. */
    static final int BAR = 54;

    private static final String CSS = """
            @page{size:A4;margin:10mm}
            *{box-sizing:border-box}
            body{font:8.5pt/1.3 system-ui,sans-serif;color:#1b1f24;margin:0;max-width:190mm}
            h1{font-size:13pt;margin:0 0 2mm}
            h2{font-size:9.5pt;margin:3mm 0 1mm;border-bottom:1px solid #ccc}
            .verdict{display:inline-block;padding:1mm 3mm;border-radius:2mm;font-weight:700;font-size:12pt;color:#fff}
            .PASS{background:#1a7f37}.FAIL{background:#cf222e}.NO_DATA{background:#6e7781}
            .v{font-weight:700}.v.PASS{color:#1a7f37;background:none}.v.FAIL{color:#cf222e;background:none}
            .v.NO_DATA{color:#6e7781;background:none}
            table{border-collapse:collapse;width:100%;table-layout:fixed}
            td,th{border-bottom:1px solid #e1e4e8;padding:.6mm 1mm;text-align:left;overflow:hidden;
            text-overflow:ellipsis;white-space:nowrap}
            th{background:#f6f8fa;font-weight:600;font-size:7.5pt}
            th.class{text-align:center;border-left:2px solid #fff}
            .n{text-align:right;font-variant-numeric:tabular-nums}
            ul{margin:0;padding-left:4mm}li{white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
            .meta{color:#57606a}
            .quadrants{display:grid;grid-template-columns:1fr 1fr;column-gap:4mm;align-items:start}
            .quadrant{min-width:0}
            .quadrant h2 .meta{font-weight:400;font-size:7.5pt}
            .quadrant p{margin:.5mm 0;font-size:7.5pt}
            table.a td,table.a th{font-size:7.5pt;padding:.5mm .8mm}
            table.m{margin-top:1mm}
            table.m td,table.m th{padding:.5mm .6mm;font-size:7pt}
            table.m th{white-space:normal;line-height:1.1;vertical-align:bottom}
            """;

    /** The matrix's column heads, short enough for half an A4 width; each keeps the full name as its title. */
    private static final Map<String, String> SHORT = Map.ofEntries(Map.entry("TTFT_P50", "TTFT p50"),
            Map.entry("TTFT_P95", "TTFT p95"), Map.entry("TTFT_P99", "TTFT p99"), Map.entry("THROUGHPUT", "req/s"),
            Map.entry("TOKENS_PER_S", "tok/s"), Map.entry("COLD_START", "cold start s"),
            Map.entry("INTERFERENCE_FACTOR", "IF"), Map.entry("JITTER_MINUTE_RATE", "jitter min"),
            Map.entry("TTFT_P99_SPREAD", "p99 spread"), Map.entry("JITTER_EVENT_RATE", "jitter /h"),
            Map.entry("MTTR", "MTTR s"),
            Map.entry("QUEUE_WAIT_P50", "wait p50"), Map.entry("QUEUE_WAIT_P95", "wait p95"),
            Map.entry("FAILURE_RATE", "failed"), Map.entry("USED_ALLOCATED", "used / alloc"),
            Map.entry("TOKENS_PER_JOULE", "tok/J"),
            Map.entry("ALLOCATED_COST", "cost"), Map.entry("USED_COST", "used cost"), Map.entry("IDLE_COST", "idle cost"));

    private VerdictHtml() {
    }

    public static String render(long id, Instant createdAt, Run run) {
        StringBuilder h = new StringBuilder(8192);
        h.append("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Acceptance run ").append(id)
                .append(" — ").append(esc(run.name())).append("</title><style>").append(CSS)
                .append("</style></head><body>");
        h.append("<h1>").append(esc(run.name())).append("</h1>");
        h.append("<div><span id=\"verdict\" class=\"verdict ").append(run.verdict()).append("\">")
                .append(run.verdict()).append("</span> <span class=\"meta\">").append(run.passed()).append(" passed, ")
                .append(run.failed()).append(" failed, ").append(run.noData()).append(" without data · window ")
                .append(run.from()).append(" – ").append(run.to()).append(" · run ").append(id).append(", computed ")
                .append(createdAt).append("</span></div>");
        h.append("<div class=\"quadrants\">");
        for (VerdictSections.Section s : VerdictSections.of(run)) {
            section(h, s, run.cells());
        }
        h.append("</div>");
        commitments(h, run);
        h.append("<h2>Risks</h2>");
        list(h, run.risks(), "none found");
        h.append("<h2>Recommended actions</h2>");
        list(h, run.actions(), "none");
        h.append("</body></html>\n");
        return h.toString();
    }

    /** A quadrant: its heading with its verdict and tally, its clauses, then its figures of the matrix. */
    private static void section(StringBuilder h, VerdictSections.Section s, List<Run.CellView> cells) {
        h.append("<section class=\"quadrant\" id=\"").append(s.title().toLowerCase(Locale.ROOT)).append("\"><h2>")
                .append(esc(s.title()));
        if (s.verdict() != null) {
            h.append(" <span class=\"v ").append(s.verdict()).append("\">").append(s.verdict()).append("</span>");
        }
        h.append(" <span class=\"meta\">").append(esc(s.tally())).append("</span></h2><p class=\"meta\">")
                .append(esc(s.covers())).append("</p>");
        if (!s.assertions().isEmpty()) {
            assertions(h, s.assertions());
        }
        if (!s.figures().isEmpty()) {
            matrix(h, s.figures(), cells);
        }
        h.append("</section>");
    }

    private static void assertions(StringBuilder h, List<Run.Outcome> outcomes) {
        h.append("<table class=\"a\"><colgroup><col style=\"width:33%\"><col style=\"width:17%\">"
                + "<col style=\"width:21%\"><col style=\"width:13%\"><col style=\"width:16%\"></colgroup>"
                + "<tr><th>assertion</th><th>verdict</th><th class=\"n\">observed</th><th class=\"n\">limit</th>"
                + "<th>figure</th></tr>");
        for (Run.Outcome o : outcomes) {
            h.append("<tr class=\"assertion\"><td title=\"").append(esc(o.statement())).append("\">")
                    .append(esc(o.name())).append("</td><td class=\"v ").append(o.verdict()).append("\">")
                    .append(o.verdict()).append("</td><td class=\"n\">").append(num(o.observed())).append(' ')
                    .append(esc(o.unit())).append("</td><td class=\"n\">").append(esc(o.comparison())).append(' ')
                    .append(num(o.limit())).append("</td><td>").append(bar(o)).append("</td></tr>");
        }
        h.append("</table>");
    }

    /** The figure as a bar against its limit (the tick); the bar's colour is the verdict's. */
    static String bar(Run.Outcome o) {
        if (o.observed() == null || o.limit() == null || o.limit().signum() == 0) {
            return "<svg width=\"" + BAR + "\" height=\"10\" role=\"img\"><text x=\"0\" y=\"9\" font-size=\"8\""
                    + " fill=\"#6e7781\">no data</text></svg>";
        }
        int length = BAR - 6;
        double scale = Math.max(o.observed().doubleValue(), o.limit().doubleValue()) * 1.1;
        int w = (int) Math.round(length * o.observed().doubleValue() / scale);
        int tick = (int) Math.round(length * o.limit().doubleValue() / scale);
        String colour = Run.PASS.equals(o.verdict()) ? "#1a7f37" : "#cf222e";
        return "<svg width=\"" + BAR + "\" height=\"10\" role=\"img\"><rect x=\"0\" y=\"1\" width=\"" + w
                + "\" height=\"8\" fill=\"" + colour + "\"/><line x1=\"" + tick + "\" x2=\"" + tick
                + "\" y1=\"0\" y2=\"10\" stroke=\"#1b1f24\" stroke-width=\"1.5\"/></svg>";
    }

    /** A quadrant's figures pivoted to one row per cell, the benchmark classes as column groups. */
    private static void matrix(StringBuilder h, List<Run.MatrixRow> figures, List<Run.CellView> cells) {
        Set<String> metrics = new LinkedHashSet<>();
        Map<String, Map<String, Run.MatrixRow>> byCell = new LinkedHashMap<>();
        for (Run.MatrixRow r : figures) {
            metrics.add(r.benchmarkClass() + ":" + r.metric());
            byCell.computeIfAbsent(r.cell(), c -> new LinkedHashMap<>()).put(r.benchmarkClass() + ":" + r.metric(), r);
        }
        h.append("<table class=\"m\"><tr><th rowspan=\"2\" style=\"width:17%\">cell</th>");
        Map<String, Integer> spans = new LinkedHashMap<>();
        metrics.forEach(m -> spans.merge(m.split(":")[0], 1, Integer::sum));
        spans.forEach((kind, n) -> h.append("<th colspan=\"").append(n).append("\" class=\"class\" title=\"")
                .append(kind).append("\">").append(kind).append("</th>"));
        h.append("</tr><tr>");
        for (String m : metrics) {
            String metric = m.split(":")[1];
            h.append("<th class=\"n\" title=\"").append(esc(metric.toLowerCase(Locale.ROOT).replace('_', ' ')))
                    .append("\">").append(esc(SHORT.getOrDefault(metric, metric))).append("</th>");
        }
        h.append("</tr>");
        for (Run.CellView c : cells) {
            Map<String, Run.MatrixRow> rows = byCell.get(c.name());
            if (rows == null) {
                continue;
            }
            h.append("<tr><td title=\"").append(esc(c.workload() + " · " + c.form())).append("\">").append(esc(c.name()))
                    .append("</td>");
            for (String m : metrics) {
                Run.MatrixRow r = rows.get(m);
                h.append("<td class=\"n\">").append(r == null ? "" : "ms".equals(r.unit()) ? ms(r.value())
                        : num(r.value())).append("</td>");
            }
            h.append("</tr>");
        }
        h.append("</table>");
    }

    private static void commitments(StringBuilder h, Run run) {
        h.append("<h2>Commitments (per GPU, at the SLO, after margins)</h2><table><tr><th>cell</th><th>form</th>"
                + "<th class=\"n\">SLO</th><th class=\"n\">measured/GPU</th><th class=\"n\">jitter</th>"
                + "<th class=\"n\">failures</th><th class=\"n\">peaks</th><th class=\"n\">committed/GPU</th>"
                + "<th class=\"n\">queue ceiling</th><th>degrades first</th><th>policy</th></tr>");
        for (Run.Commitment k : run.commitments()) {
            h.append("<tr><td>").append(esc(k.cell())).append("</td><td>").append(esc(k.form()))
                    .append("</td><td class=\"n\">").append(k.sloMs() == null ? "" : esc(k.sloSli()) + " " + num(k.sloMs())
                            + " ms").append("</td><td class=\"n\">").append(num(k.throughputPerGpu()))
                    .append("</td><td class=\"n\">").append(num(k.jitterMargin()))
                    .append("</td><td class=\"n\">").append(num(k.failureMargin()))
                    .append("</td><td class=\"n\">").append(num(k.peakMargin()))
                    .append("</td><td class=\"n\">").append(num(k.committedPerGpu())).append("</td><td class=\"n\">")
                    .append(k.queueWaitCeilingSeconds() == null ? "" : num(k.queueWaitCeilingSeconds()) + " s")
                    .append("</td><td>").append(esc(k.degradesFirst())).append("</td><td>").append(esc(k.policy()))
                    .append("</td></tr>");
        }
        h.append("</table>");
    }

    private static void list(StringBuilder h, List<String> items, String none) {
        h.append("<ul>");
        if (items.isEmpty()) {
            h.append("<li>").append(none).append("</li>");
        }
        items.stream().limit(MAX_LINES).forEach(i -> h.append("<li title=\"").append(esc(i)).append("\">")
                .append(esc(i)).append("</li>"));
        if (items.size() > MAX_LINES) {
            h.append("<li class=\"meta\">and ").append(items.size() - MAX_LINES).append(" more in the pack</li>");
        }
        h.append("</ul>");
    }

    /** A latency in the matrix: to a tenth of a millisecond. */
    static String ms(BigDecimal v) {
        return v == null ? "–" : v.setScale(Math.min(v.scale(), 1), java.math.RoundingMode.HALF_EVEN).toPlainString();
    }

    static String num(BigDecimal v) {
        return v == null ? "–" : v.setScale(Math.min(v.scale(), 3), java.math.RoundingMode.HALF_EVEN).toPlainString();
    }

    static String esc(String s) {
        return HtmlText.escape(s);
    }
}
