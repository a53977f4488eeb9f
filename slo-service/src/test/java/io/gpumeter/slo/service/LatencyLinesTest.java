package io.gpumeter.slo.service;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.slo.domain.LatencyRecord;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LatencyLinesTest {

    private static final String GOOD = "{\"service\":\"chat\",\"namespace\":\"ml\",\"pod\":\"chat-0\","
            + "\"ts\":\"2026-05-01T10:00:01.500+02:00\",\"ttftMs\":120.5,\"e2eMs\":900,\"ok\":true}";
    private final LatencyLines lines = new LatencyLines(new ObjectMapper(), 3);

    @Test
    void aGoodLineKeepsEveryFieldAndLeavesMissingLatenciesNull() {
        List<LatencyRecord> records = lines.parse(GOOD + "\n\n" + GOOD.replace("true", "false") + "\n");
        assertEquals(2, records.size());
        LatencyRecord r = records.get(0);
        assertEquals(Instant.parse("2026-05-01T08:00:01.500Z"), r.ts());
        assertEquals(Instant.parse("2026-05-01T08:00:00Z"), r.minute());
        assertEquals(120.5, r.ttftMs());
        assertNull(r.itlMs());
        assertEquals(900.0, r.e2eMs());
        assertTrue(r.ok());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "negative latency      | \"ttftMs\":120.5          | \"ttftMs\":-1           | ttftMs",
            "latency as a string   | \"e2eMs\":900             | \"e2eMs\":\"900\"       | e2eMs",
            "latency above one day | \"e2eMs\":900             | \"e2eMs\":86400001      | e2eMs",
            "no offset on ts       | 10:00:01.500+02:00        | 10:00:01.500          | ts",
            "blank service         | \"service\":\"chat\"      | \"service\":\" \"       | service",
            "missing pod           | \"pod\":\"chat-0\",       | ''                    | pod",
            "ok as a string        | \"ok\":true               | \"ok\":\"yes\"          | ok",
            "unknown field         | \"ok\":true               | \"ok\":true,\"ttft\":1  | ttft",
            "duplicate field       | \"ok\":true               | \"ok\":true,\"ok\":true | body",
            "not JSON              | {                         | [                     | body",
    })
    void aBadSecondLineFailsTheBodyNamingLineAndField(String name, String from, String to, String field) {
        String bad = GOOD.replace(from, to.equals("''") ? "" : to);
        ApiProblem p = assertThrows(ApiProblem.class, () -> lines.parse(GOOD + "\n" + bad + "\n"));
        assertEquals(400, p.status());
        assertEquals(field, p.field());
        assertTrue(p.getMessage().startsWith("line 2: "), p.getMessage());
    }

    @Test
    void anEmptyBodyAndTooManyRecordsAreRefused() {
        assertEquals(400, assertThrows(ApiProblem.class, () -> lines.parse("\n \n")).status());
        String four = String.join("\n", GOOD, GOOD, GOOD, GOOD);
        assertEquals(413, assertThrows(ApiProblem.class, () -> lines.parse(four)).status());
    }
}
