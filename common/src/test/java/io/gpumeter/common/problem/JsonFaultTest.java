package io.gpumeter.common.problem;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.gpumeter.common.testing.Fuzz;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class JsonFaultTest {

    enum Mode { FAST, SLOW }

    record Line(String name, int count) {
    }

    record Body(String tenant, BigDecimal amount, long whole, boolean on, Instant at, Mode mode, List<Line> lines,
                Map<String, BigDecimal> rates) {
        Body {
            if (tenant != null && tenant.startsWith("-")) {
                throw new IllegalArgumentException("tenant must not start with a dash");
            }
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule())
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "an array for the body       | []                             | the body must be an object",
            "an empty body               | ''                             | the body must be an object",
            "a string for a number       | {\"amount\":\"x\"}             | amount: expected a number, got 'x'",
            "an object for a number      | {\"amount\":{}}                | amount: expected a number",
            "an array for a whole number | {\"whole\":[1]}                | whole: expected a whole number",
            "a number for a boolean      | {\"on\":\"maybe\"}             | on: expected true or false, got 'maybe'",
            "a bad timestamp             | {\"at\":\"yesterday\"}         | at: expected an RFC 3339 timestamp such as 2026-05-01T00:00:00Z, got 'yesterday'",
            "an unknown enum name        | {\"mode\":\"WARP\"}            | mode: expected one of FAST, SLOW, got 'WARP'",
            "an object for an array      | {\"lines\":{}}                 | lines: expected an array",
            "a wrong type in an element  | {\"lines\":[{\"count\":\"a\"}]} | lines[0].count: expected a whole number, got 'a'",
            "a wrong map value           | {\"rates\":{\"a100\":[]}}      | rates.a100: expected a number",
            "an unknown field            | {\"colour\":1}                 | colour: unknown field 'colour'",
            "a number too large for long | {\"whole\":99999999999999999999999} | whole: the number is out of range at line 1 column 33",
            "a truncated document        | {\"tenant\":\"a                | tenant: the body ends before its JSON document does at line 1 column 13",
            "not JSON at all             | {tenant:1}                     | the body is not valid JSON at line 1 column 2",
            "the product's own refusal   | {\"tenant\":\"-a\"}            | tenant must not start with a dash",
    })
    void aBadBodyIsDescribedInPlainWords(String name, String body, String detail) {
        JsonProcessingException e = assertThrows(JsonProcessingException.class, () -> JSON.readValue(body, Body.class));
        String said = JsonFault.of(e).detail();
        assertEquals(detail, said);
        assertNull(Fuzz.namesCode(said), said);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "deep nesting     | DEEP",
            "invalid UTF-8    | BYTES",
    })
    void noFaultNamesCode(String name, String body) {
        byte[] bytes = switch (body) {
            case "DEEP" -> ("{\"lines\":" + "[".repeat(5000) + "]".repeat(5000) + "}").getBytes(StandardCharsets.UTF_8);
            case "BYTES" -> new byte[]{'{', '"', 't', 'e', 'n', 'a', 'n', 't', '"', ':', '"', (byte) 0xC3, (byte) 0x28, '"', '}'};
            default -> new byte[0];
        };
        JsonProcessingException e = assertThrows(JsonProcessingException.class, () -> JSON.readValue(bytes, Body.class));
        String said = JsonFault.of(e).detail();
        assertNull(Fuzz.namesCode(said), said);
        assertNull(Fuzz.namesCode(JsonFault.of(e).what()), said);
    }
}
