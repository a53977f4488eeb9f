package io.gpumeter.slo.acceptance;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class VerdictPageTest {

    private static Run.Outcome outcome(String name, String verdict, String observed, String limit, String comparison) {
        return new Run.Outcome(name, "PERFORMANCE", "THRESHOLD", "P99", "TTFT", "c", null, verdict,
                observed == null ? null : new BigDecimal(observed), new BigDecimal(limit), comparison, "ms",
                name + " <statement>", new Run.Evidence(List.of(), List.of(), List.of(), ""));
    }

    private static Run run(List<Run.Outcome> outcomes) {
        return new Run("plan <&> \"quoted\"", Instant.parse("2026-11-02T10:00:00Z"), Instant.parse("2026-11-02T11:00:00Z"),
                Run.overall(outcomes), 0, 0, 0, List.of(), outcomes, List.of(), List.of(), List.of(), List.of(), List.of());
    }

    @Test
    void theOverallVerdictIsPassOnlyWhenEveryClausePassed() {
        assertEquals("PASS", Run.overall(List.of(outcome("a", "PASS", "1", "2", "<="))));
        assertEquals("FAIL", Run.overall(List.of(outcome("a", "PASS", "1", "2", "<="), outcome("b", "FAIL", "3", "2", "<="),
                outcome("c", "NO_DATA", null, "2", "<="))));
        assertEquals("NO_DATA", Run.overall(List.of(outcome("a", "PASS", "1", "2", "<="), outcome("c", "NO_DATA", null, "2", "<="))));
        assertEquals("NO_DATA", Run.overall(List.of()), "nothing asserted is nothing passed");
    }

    @Test
    void thePageIsSelfContainedAndEscapesWhatThePlanNamed() {
        String html = VerdictHtml.render(7, Instant.parse("2026-11-02T12:00:00Z"),
                run(List.of(outcome("p99 <b>", "FAIL", "450", "300", "<="), outcome("no data", "NO_DATA", null, "300", "<="))));
        assertTrue(html.contains("<style>") && html.contains("@page{size:A4"));
        assertFalse(html.contains("<script"), "no script");
        assertFalse(html.matches("(?s).*(src|href)=.*"), "nothing fetched: no src or href");
        assertTrue(html.contains("plan &lt;&amp;&gt; &quot;quoted&quot;"));
        assertTrue(html.contains("p99 &lt;b&gt;"));
        assertFalse(html.contains("<b>"));
        // the failing bar is red and runs past its limit's tick: 48 px to the 495 of 450 x 1.1, so 450 is 44 px, 300 is 29
        assertTrue(html.contains("<rect x=\"0\" y=\"1\" width=\"44\" height=\"8\" fill=\"#cf222e\"/><line x1=\"29\""),
                html);
    }

    @Test
    void markdownCarriesTheSameVerdict() {
        String md = VerdictMarkdown.render(7, Instant.parse("2026-11-02T12:00:00Z"),
                run(List.of(outcome("a|b", "PASS", "100", "300", "<="))));
        assertTrue(md.startsWith("# plan &lt;&amp;&gt; \"quoted\"\n\n**Verdict: PASS**"), md);
        assertTrue(md.contains("| a\\|b | PASS | 100 ms | &lt;= 300 |"), md);
        assertTrue(md.contains("\n## Performance — PASS\n"), md);
    }

    private static final String RUNBOOK = """
            [{"alertname": "GpuAllocationIdle", "severity": "warning", "meaning": "idle",
              "actions": [], "manual": ["Ask the owner to release the GPU", "An idle-culling policy"],
              "who": "tenant's team lead"},
             {"alertname": "InferenceLatencyP99High", "severity": "warning", "meaning": "slow",
              "actions": [{"action": "trace-snapshot", "mode": "dry-run", "undoOnResolve": false}],
              "manual": ["Move the noisiest neighbour"], "who": "the service's SRE"}]""";

    private static Run.Outcome of(String metric, String cell, String verdict) {
        return new Run.Outcome(metric + " of " + cell, Quadrant.of(metric).name(), "THRESHOLD", metric, null, cell, null,
                verdict,
                BigDecimal.ONE, BigDecimal.TEN, "<=", "ratio", "s", new Run.Evidence(List.of(), List.of(), List.of(), ""));
    }

    /** A failing figure is answered by the runbook's steps for the alerts that watch it, and the cell's commitment. */
    @Test
    void actionsAreDrawnFromTheRunbookAndTheCapacityModel() throws Exception {
        var runbook = new LedgerReads.Read<>(new com.fasterxml.jackson.databind.ObjectMapper().readTree(RUNBOOK),
                new Run.Call("curl runbook", 200, RUNBOOK));
        var commitment = new Run.Commitment("chat", "HAMI", "hami-2", null, null, new BigDecimal("2"), BigDecimal.ONE,
                null, null, new BigDecimal("0.2"), new BigDecimal("1.6"), null, "IDLE_COST (120% of its limit)", null, "throttle");
        List<String> actions = Advice.actions(List.of(of("IDLE_COST", "hami-2", "FAIL"), of("P99", "dedicated", "PASS")),
                List.of(), List.of(commitment), runbook);
        assertEquals(List.of("GpuAllocationIdle (runbook; tenant's team lead): Ask the owner to release the GPU;"
                        + " An idle-culling policy",
                "Capacity model: commit at most 1.6 requests/s per GPU for chat under HAMI (measured 2, less jitter,"
                        + " failure and peak margins); IDLE_COST (120% of its limit) gives first"), actions);
        // a latency failure names the automatic action with its mode; a figure no alert watches keeps its remedy
        List<String> latency = Advice.actions(List.of(of("P99", "dedicated", "FAIL"), of("QUEUE_WAIT_P95", "q", "FAIL")),
                List.of(), List.of(), runbook);
        assertEquals("InferenceLatencyP99High (runbook; the service's SRE): Move the noisiest neighbour — automatic:"
                + " trace-snapshot (dry-run)", latency.get(0));
        assertTrue(latency.get(1).startsWith("Raise the ClusterQueue's nominal quota"), latency.toString());
    }

    /** Without alert-service's runbook no runbook step is listed, a note says why, and the rest stands. */
    @Test
    void withoutTheRunbookNoRunbookActionIsListedAndANoteSaysWhy() {
        var down = new LedgerReads.Read<com.fasterxml.jackson.databind.JsonNode>(null,
                new Run.Call("curl runbook", -1, "no answer: HTTP 503"));
        List<String> actions = Advice.actions(List.of(of("IDLE_COST", "hami-2", "FAIL")), List.of(), List.of(), down);
        assertEquals(1, actions.size(), actions.toString());
        assertTrue(actions.get(0).startsWith("Runbook actions are not listed: alert-service's runbook could not be read"
                + " (no answer: HTTP 503)"), actions.get(0));
    }

    @Test
    void theMatrixShowsEachCellsCostColumns() {
        List<Run.MatrixRow> matrix = List.of(
                new Run.MatrixRow("PERFORMANCE", "shareability", "chat", "HAMI", "c", "TTFT_P99", new BigDecimal("135.039"),
                        "ms"),
                new Run.MatrixRow("EFFICIENCY", "deliverability", "chat", "HAMI", "c", "ALLOCATED_COST",
                        new BigDecimal("1.23"), "USD"),
                new Run.MatrixRow("EFFICIENCY", "deliverability", "chat", "HAMI", "c", "USED_COST", new BigDecimal("0.5"),
                        "USD"),
                new Run.MatrixRow("EFFICIENCY", "deliverability", "chat", "HAMI", "c", "IDLE_COST", new BigDecimal("0.73"),
                        "USD"));
        Run run = new Run("p", Instant.parse("2026-11-02T10:00:00Z"), Instant.parse("2026-11-02T11:00:00Z"), "PASS",
                0, 0, 0, List.of(new Run.CellView("c", "chat", "HAMI", "s", null, null, List.of())), List.of(), matrix,
                List.of(), List.of(), List.of(), List.of());
        String html = VerdictHtml.render(1, Instant.parse("2026-11-02T12:00:00Z"), run);
        assertTrue(html.contains(">cost</th><th class=\"n\" title=\"used cost\">used cost</th>"), html);
        assertTrue(html.contains("<td class=\"n\">135.0</td></tr></table>"), "a latency to a tenth of a millisecond,"
                + " in the performance quadrant: " + html);
        assertTrue(html.contains("<td class=\"n\">1.23</td><td class=\"n\">0.5</td><td class=\"n\">0.73</td>"),
                "the costs, in the efficiency quadrant: " + html);
        assertTrue(html.indexOf("TTFT p99</th>") < html.indexOf("id=\"efficiency\"")
                && html.indexOf("id=\"efficiency\"") < html.indexOf(">cost</th>"), html);
    }

    private static Run.Outcome clause(String name, String quadrant, String kind, String metric, String verdict) {
        return new Run.Outcome(name, quadrant, kind, metric, null, "c", null, verdict, BigDecimal.ONE, BigDecimal.TEN,
                "<=", "s", name + " statement", new Run.Evidence(List.of(), List.of(), List.of(), ""));
    }

    private static Run.MatrixRow figure(String quadrant, String kind, String metric, String value) {
        return new Run.MatrixRow(quadrant, kind, "chat", "HAMI", "c", metric, new BigDecimal(value), "s");
    }

    /**
     * Clauses and figures come in the plan's order, quadrants mixed; the verdicts show four sections in the quadrants'
     * order, each holding exactly its own, with its own verdict. A run stored before quadrants were recorded (none on
     * its clauses and figures) is grouped by what its metrics declare.
     */
    @Test
    void bothVerdictsGroupClausesAndFiguresByQuadrant() {
        List<Run.Outcome> outcomes = List.of(
                clause("held back", "GOVERNANCE", "BLOCKED", null, "PASS"),
                clause("recovers fast", "STABILITY", "THRESHOLD", "MTTR", "FAIL"),
                clause("starts fast", "PERFORMANCE", "THRESHOLD", "COLD_START", "PASS"),
                clause("idle is cheap", "EFFICIENCY", "THRESHOLD", "IDLE_COST", "NO_DATA"),
                clause("steady p99", null, "THRESHOLD", "P99_SPREAD", "PASS"));
        List<Run.MatrixRow> matrix = List.of(
                figure("STABILITY", "deliverability", "MTTR", "195"),
                figure("PERFORMANCE", "deliverability", "COLD_START", "160"),
                figure(null, "shareability", "TTFT_P99_SPREAD", "600.4"),
                figure("GOVERNANCE", "deliverability", "QUEUE_WAIT_P95", "12"),
                figure(null, "shareability", "JITTER_MINUTE_RATE", "0.25"));
        Run run = new Run("quadrants", Instant.parse("2026-11-02T10:00:00Z"), Instant.parse("2026-11-02T11:00:00Z"),
                Run.overall(outcomes), 3, 1, 1, List.of(new Run.CellView("c", "chat", "HAMI", "s", "ml", null, List.of())),
                outcomes, matrix, List.of(), List.of(), List.of(), List.of());

        String md = VerdictMarkdown.render(3, Instant.parse("2026-11-02T12:00:00Z"), run);
        List<String> sections = md.lines().filter(l -> l.startsWith("## ")).toList();
        assertEquals(List.of("## Performance — PASS", "## Stability — FAIL", "## Efficiency — NO\\_DATA",
                "## Governance — PASS", "## Commitments", "## Risks", "## Recommended actions"), sections);
        assertIn(md, "## Performance", "## Stability", "| starts fast |", "| COLD\\_START | 160 |");
        assertIn(md, "## Stability", "## Efficiency", "| recovers fast |", "| steady p99 |", "| MTTR | 195 |",
                "| TTFT\\_P99\\_SPREAD | 600.4 |", "| JITTER\\_MINUTE\\_RATE | 0.25 |");
        assertIn(md, "## Efficiency", "## Governance", "| idle is cheap |");
        assertIn(md, "## Governance", "## Commitments", "| held back |", "| QUEUE\\_WAIT\\_P95 | 12 |");
        assertTrue(md.contains("Spread of the p99, jitter events, failures and the time to recover: 1 passed, 1 failed,"
                + " 0 without data."), md);
        assertEquals(1, md.split("\\| starts fast \\|", -1).length - 1, "each clause once");

        String html = VerdictHtml.render(3, Instant.parse("2026-11-02T12:00:00Z"), run);
        assertIn(html, "id=\"performance\"", "id=\"stability\"", ">starts fast<", "title=\"cold start\"");
        assertIn(html, "id=\"stability\"", "id=\"efficiency\"", ">recovers fast<", ">steady p99<", "title=\"mttr\"",
                "title=\"ttft p99 spread\"", "title=\"jitter minute rate\"");
        assertIn(html, "id=\"efficiency\"", "id=\"governance\"", ">idle is cheap<");
        assertIn(html, "id=\"governance\"", "<h2>Commitments", ">held back<", "title=\"queue wait p95\"");
        assertTrue(html.contains("<h2>Stability <span class=\"v FAIL\">FAIL</span>"), html);
    }

    /** Each of {@code parts} lies between {@code from} and the first {@code to} after it. */
    private static void assertIn(String text, String from, String to, String... parts) {
        int start = text.indexOf(from);
        int end = text.indexOf(to, start);
        assertTrue(start >= 0 && end > start, from + " before " + to + " in " + text);
        for (String part : parts) {
            int at = text.indexOf(part, start);
            assertTrue(at > start && at < end, part + " between " + from + " and " + to + " in " + text);
        }
    }
}
