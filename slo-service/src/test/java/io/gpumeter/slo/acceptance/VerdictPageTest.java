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
                Run.overall(outcomes), 0, 0, 0, List.of(), outcomes, List.of(), List.of(), List.of(), List.of());
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
        assertTrue(md.startsWith("# plan <&> \"quoted\"\n\n**Verdict: PASS**"));
        assertTrue(md.contains("| a\\|b | PASS | 100 ms | <= 300 |"), md);
    }
}
