package io.gpumeter.slo.acceptance;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.math.BigDecimal;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The pack's files one by one: its curl lines, CSV cells and Markdown text, for names a tenant chose. */
class PackFilesTest {

    @Test
    void aCurlLineQuotesEveryWordAndEncodesEveryQueryValue() {
        String line = CurlLine.slo("/api/v1/latency", "service", "chat$(touch x) it's", "sli", "TTFT", "none", null);
        assertEquals("curl -sS -H 'Authorization: Bearer '\"$GPUMETER_TOKEN\" \"$GPUMETER_SLO\""
                + "'/api/v1/latency?service=chat%24%28touch%20x%29%20it%27s&sli=TTFT'", line);
        assertEquals("curl -sS -H 'Authorization: Bearer '\"$GPUMETER_TOKEN\" -H 'Content-Type: application/json'"
                        + " -X POST 'http://ledger:8082/api/v1/holdings' --data-raw '{\"pod\":\"it'\\''s\"}'",
                CurlLine.post("http://ledger:8082/", "/api/v1/holdings", "{\"pod\":\"it's\"}"));
    }

    /** A run stored before its lines were quoted keeps them as comments: the file never runs what a name brought. */
    @Test
    void onlyLinesOfQuotedWordsAreWrittenToRun() {
        String old = "curl -sS -H \"Authorization: Bearer $GPUMETER_TOKEN\" \"$GPUMETER_SLO/api/v1/latency?service="
                + "chat$(touch x)\nrm -rf ~&sli=TTFT\"";
        String quoted = CurlLine.get("http://ledger:8082", "/api/v1/queue-wait/pending", "at", "2026-11-02T10:05:00Z");
        String sh = Pack.requests(List.of(new Run.Call(old, 200, "{}"), new Run.Call(quoted, 200, "{}")));
        List<String> lines = sh.lines().toList();
        assertEquals(List.of("#!/bin/sh", lines.get(1), "# not run, its words are not all quoted: curl -sS -H"
                + " \"Authorization: Bearer $GPUMETER_TOKEN\" \"$GPUMETER_SLO/api/v1/latency?service=chat$(touch x)\\n"
                + "rm -rf ~&sli=TTFT\"", quoted), lines);
        assertTrue(lines.get(1).startsWith("# "));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
            "=1+1|'=1+1",
            "+cmd|'+cmd",
            "-2+3|'-2+3",
            "@SUM(A1)|'@SUM(A1)",
            "-0.25|-0.25",
            "12|12",
            "1.5E-4|1.5E-4",
            "a,b|\"\"\"a,b\"\"\"",
            "team-a|team-a"})
    void aTextCellIsDefusedAndQuotedAndANumberIsLeftAlone(String cell, String written) {
        assertEquals(written, PackCsv.cell(cell));
    }

    @Test
    void controlCharactersFirstAreDefusedAndLineBreaksQuoted() throws Exception {
        assertEquals("\"'=HYPERLINK(\"\"http://x\"\")\"", PackCsv.cell("=HYPERLINK(\"http://x\")"));
        assertEquals("'\t=1", PackCsv.cell("\t=1"));
        assertEquals("\"'\r=1\"", PackCsv.cell("\r=1"));
        assertEquals("\"two\nlines\"", PackCsv.cell("two\nlines"));
        assertEquals("-4.10,,'=1,3\n", PackCsv.line(new BigDecimal("-4.10"), null,
                new ObjectMapper().readTree("\"=1\""), new ObjectMapper().readTree("3")));
    }

    @Test
    void markdownTextShowsAsWritten() {
        assertEquals("&lt;img src=x onerror=alert(1)&gt; \\[a\\](javascript:x) \\*b\\* \\_c\\_ \\`d\\` e\\|f \\~g\\~ "
                        + "&amp;amp; a\\\\b h-i # j",
                VerdictMarkdown.text("<img src=x onerror=alert(1)> [a](javascript:x) *b* _c_ `d` e|f ~g~ &amp; a\\b h-i\n# j"));
        assertEquals("\\# heading", VerdictMarkdown.text("# heading"));
        assertEquals("\\- item", VerdictMarkdown.text("- item"));
        assertEquals("\\+ item", VerdictMarkdown.text("+ item"));
        assertEquals("12\\. item", VerdictMarkdown.text("12. item"));
        assertEquals("1\\) item", VerdictMarkdown.text("1) item"));
        assertEquals("v1.2", VerdictMarkdown.text("v1.2"));
        assertFalse(VerdictMarkdown.text("a\r\nb").contains("\n"));
    }
}
