package io.gpumeter.collector.kubernetes;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WatchStreamReaderTest {

    static final String GOOD_POD = "{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":"
            + "{\"name\":\"p\",\"namespace\":\"n\",\"uid\":\"u\",\"resourceVersion\":\"7\"},\"spec\":{\"containers\":"
            + "[{\"name\":\"a\",\"resources\":{\"limits\":{\"nvidia.com/gpu\":\"1\"}}}]}}}";

    static int read(String body, FactSink sink) throws IOException {
        return new WatchStreamReader(10).read(new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)),
                Instant.parse("2026-06-01T00:00:00Z"), sink);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "not JSON | {\"type\":\"ADDED\",\"object\":{ | not valid JSON",
            "truncated JSON | {\"type\":\"ADDED\" | not valid JSON",
            "two objects on one line | {\"type\":\"ADDED\",\"object\":{}} {} | not valid JSON",
            "array | [1,2] | must be a JSON object",
            "bare string | \"ADDED\" | must be a JSON object",
            "no type | {\"object\":{\"kind\":\"Pod\"}} | \"type\" is missing",
            "numeric type | {\"type\":1,\"object\":{\"kind\":\"Pod\"}} | \"type\" is missing",
            "unknown type | {\"type\":\"CHANGED\",\"object\":{\"kind\":\"Pod\"}} | type must be one of ADDED, MODIFIED, DELETED",
            "lower-case type | {\"type\":\"added\",\"object\":{\"kind\":\"Pod\"}} | type must be one of",
            "no object | {\"type\":\"ADDED\"} | \"object\" is missing",
            "object is a string | {\"type\":\"ADDED\",\"object\":\"pod\"} | \"object\" is missing",
    })
    void malformedLinesFailTheStreamNamingTheLine(String name, String badLine, String message) {
        String body = GOOD_POD + "\n\n" + badLine + "\n" + GOOD_POD + "\n";
        WatchStreamReader.MalformedLine e = assertThrows(WatchStreamReader.MalformedLine.class, () -> read(body, new FactSink()));
        assertEquals(3, e.line());
        assertTrue(e.getMessage().startsWith("line 3: "), e.getMessage());
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }

    @Test
    void eventsThatCannotBeMeteredAreCountedByReason() throws IOException {
        String body = String.join("\n",
                GOOD_POD,
                "{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"Pod\",\"metadata\":{\"resourceVersion\":\"9\"}}}",
                "{\"type\":\"ADDED\",\"object\":{\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c\"}}}",
                "{\"type\":\"ADDED\",\"object\":{\"metadata\":{\"name\":\"c\"}}}",
                "{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\",\"metadata\":\"oops\"}}",
                "{\"type\":\"MODIFIED\",\"object\":{\"kind\":\"Pod\",\"metadata\":{\"name\":\"q\",\"namespace\":\"n\",\"uid\":\"v\",\"resourceVersion\":\"8\"}}}");
        FactSink sink = new FactSink();
        assertEquals(6, read(body, sink));
        assertEquals(1, sink.facts(), sink.skippedByReason().toString());
        assertEquals(Map.of("BOOKMARK event", 1, "kind ConfigMap not metered yet", 1, "object without kind", 1,
                "unreadable Pod", 1, "no GPU requested", 1), sink.skippedByReason());
    }

    @Test
    void moreLinesThanAllowedAreRefused() {
        String body = (GOOD_POD + "\n").repeat(11);
        assertThrows(WatchStreamReader.TooManyLines.class, () -> read(body, new FactSink()));
    }
}
