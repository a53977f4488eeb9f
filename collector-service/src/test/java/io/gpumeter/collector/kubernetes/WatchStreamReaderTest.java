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
            "object is null | {\"type\":\"ADDED\",\"object\":null} | \"object\" is missing",
            "object is an array | {\"type\":\"ADDED\",\"object\":[{\"kind\":\"Pod\"}]} | \"object\" is missing",
            "a later object that is not one | {\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\"},\"object\":1} | \"object\" is missing",
            "type is an object | {\"type\":{\"name\":\"ADDED\"},\"object\":{\"kind\":\"Pod\"}} | \"type\" is missing",
            "a later type that is null | {\"type\":\"ADDED\",\"type\":null,\"object\":{\"kind\":\"Pod\"}} | \"type\" is missing",
            "null | null | must be a JSON object",
            "number | 42 | must be a JSON object",
            "object then garbage | {\"type\":\"ADDED\",\"object\":{}} x | not valid JSON",
            "unclosed object | {\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\",\"metadata\":{ | not valid JSON",
            "bad token inside the object | {\"type\":\"ADDED\",\"object\":{\"kind\":Pod}} | not valid JSON",
            "bad token after the object | {\"object\":{\"kind\":\"Pod\"},\"type\":\"ADDED\",\"x\":[1,} | not valid JSON",
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
    void fieldsAreReadInAnyOrderAndTheLastOfATwiceNamedFieldCounts() throws IOException {
        String body = String.join("\n",
                // the object before the type, its kind after its metadata, other fields around
                "{\"object\":{\"metadata\":{\"name\":\"p\",\"namespace\":\"n\",\"uid\":\"u\",\"resourceVersion\":\"7\"},"
                        + "\"spec\":{\"containers\":[{\"name\":\"a\",\"resources\":{\"limits\":{\"nvidia.com/gpu\":\"1\"}}}]},"
                        + "\"apiVersion\":\"v1\",\"kind\":\"Pod\"},\"extra\":[{\"a\":[1,2,{}]}],\"type\":\"MODIFIED\"}",
                // the later type wins: a BOOKMARK
                "{\"type\":\"ADDED\",\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"Pod\"}}",
                // the later object wins: a ConfigMap
                "{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\"},\"object\":{\"kind\":\"ConfigMap\"}}",
                // a kind that is not a string is no kind anyone meters
                "{\"type\":\"ADDED\",\"object\":{\"kind\":5}}",
                "{\"type\":\"ADDED\",\"object\":{\"kind\":{\"name\":\"Pod\"}}}",
                "{\"type\":\"ADDED\",\"object\":{\"kind\":null}}");
        FactSink sink = new FactSink();
        assertEquals(6, read(body, sink));
        assertEquals(1, sink.facts(), sink.skippedByReason().toString());
        assertEquals(Map.of("BOOKMARK event", 1, "kind ConfigMap not metered yet", 1, "kind 5 not metered yet", 1,
                "object without kind", 2), sink.skippedByReason());
    }

    @Test
    void moreLinesThanAllowedAreRefused() {
        String body = (GOOD_POD + "\n").repeat(11);
        assertThrows(WatchStreamReader.TooManyLines.class, () -> read(body, new FactSink()));
    }
}
