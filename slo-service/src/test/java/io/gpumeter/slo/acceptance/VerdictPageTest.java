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
        return new Run.Outcome(name, "THRESHOLD", "P99", "TTFT", "c", null, verdict,
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
        // the failing bar is red and runs past its limit's tick: 450 of a scale of 495 against 300
        assertTrue(html.contains("<rect x=\"0\" y=\"1\" width=\"155\" height=\"8\" fill=\"#cf222e\"/><line x1=\"103\""),
                html);
    }

    @Test
    void markdownCarriesTheSameVerdict() {
        String md = VerdictMarkdown.render(7, Instant.parse("2026-11-02T12:00:00Z"),
                run(List.of(outcome("a|b", "PASS", "100", "300", "<="))));
        assertTrue(md.startsWith("# plan &lt;&amp;&gt; \"quoted\"\n\n**Verdict: PASS**"), md);
        assertTrue(md.contains("| a\\|b | PASS | 100 ms | &lt;= 300 |"), md);
    }

    private static final String RUNBOOK = """
            [{"alertname": "GpuAllocationIdle", "severity": "warning", "meaning": "idle",
              "actions": [], "manual": ["Ask the owner to release the GPU", "An idle-culling policy"],
              "who": "tenant's team lead"},
             {"alertname": "InferenceLatencyP99High", "severity": "warning", "meaning": "slow",
              "actions": [{"action": "trace-snapshot", "mode": "dry-run", "undoOnResolve": false}],
              "manual": ["Move the noisiest neighbour"], "who": "the service's SRE"}]""";

    private static Run.Outcome of(String metric, String cell, String verdict) {
        return new Run.Outcome(metric + " of " + cell, "THRESHOLD", metric, null, cell, null, verdict,
                BigDecimal.ONE, BigDecimal.TEN, "<=", "ratio", "s", new Run.Evidence(List.of(), List.of(), List.of(), ""));
    }

    /** A failing figure is answered by the runbook's steps for the alerts that watch it, and the cell's commitment. */
    @Test
    void actionsAreDrawnFromTheRunbookAndTheCapacityModel() throws Exception {
        var runbook = new LedgerReads.Read<>(new com.fasterxml.jackson.databind.ObjectMapper().readTree(RUNBOOK),
                new Run.Call("curl runbook", 200, RUNBOOK));
        var commitment = new Run.Commitment("chat", "HAMI", "hami-2", null, null, new BigDecimal("2"), BigDecimal.ONE,
                null, null, new BigDecimal("0.2"), new BigDecimal("1.6"), null, "IDLE_COST (120% of its limit)");
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
                new Run.MatrixRow("shareability", "chat", "HAMI", "c", "TTFT_P99", new BigDecimal("135.039"), "ms"),
                new Run.MatrixRow("deliverability", "chat", "HAMI", "c", "ALLOCATED_COST", new BigDecimal("1.23"), "USD"),
                new Run.MatrixRow("deliverability", "chat", "HAMI", "c", "USED_COST", new BigDecimal("0.5"), "USD"),
                new Run.MatrixRow("deliverability", "chat", "HAMI", "c", "IDLE_COST", new BigDecimal("0.73"), "USD"));
        Run run = new Run("p", Instant.parse("2026-11-02T10:00:00Z"), Instant.parse("2026-11-02T11:00:00Z"), "PASS",
                0, 0, 0, List.of(new Run.CellView("c", "chat", "HAMI", "s", null, null, List.of())), List.of(), matrix,
                List.of(), List.of(), List.of(), List.of());
        String html = VerdictHtml.render(1, Instant.parse("2026-11-02T12:00:00Z"), run);
        assertTrue(html.contains(">cost</th><th class=\"n\" title=\"used cost\">used cost</th>"), html);
        assertTrue(html.contains("<td class=\"n\">135.0</td><td class=\"n\">1.23</td><td class=\"n\">0.5</td>"
                + "<td class=\"n\">0.73</td>"), "latencies to a tenth of a millisecond, then the costs: " + html);
    }
}
