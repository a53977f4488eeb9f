package io.gpumeter.collector.kubernetes;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A line read from its bytes comes out as the JSON tree reads it: plain lines are bound straight from the bytes
 * (wherever in a buffer they lie), and every other line is left to the tree.
 */
class WatchEventsTest {

    private static final Instant AT = Instant.parse("2026-06-01T00:00:00Z");
    private static final String POD = WatchStreamReaderTest.GOOD_POD;
    private static final String GPU_POD_OBJECT = "{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":"
            + "{\"name\":\"p\",\"namespace\":\"n\",\"uid\":\"u\",\"resourceVersion\":\"7\",\"labels\":{\"a\":\"é\"}},"
            + "\"spec\":{\"nodeName\":\"node-1\",\"containers\":[{\"name\":\"a\",\"resources\":{\"limits\":{\"nvidia.com/gpu\":\"2\"}}}]},"
            + "\"status\":{\"phase\":\"Running\"}}";

    /** The line placed inside a larger buffer, between bytes that are not part of it. */
    private static byte[] embedded(String line) {
        return ("}{\"x\":\n" + line + "\n]]").getBytes(StandardCharsets.UTF_8);
    }

    private static final int OFFSET = 7;

    private static int length(String line) {
        return line.getBytes(StandardCharsets.UTF_8).length;
    }

    /** What the sink holds, as text: its facts and governance facts, and its skips by reason. */
    private static String outcome(FactSink sink) {
        return sink.all() + " | " + sink.governanceFacts() + " | " + sink.skippedByReason();
    }

    private static String viaBytes(String line) {
        FactSink sink = new FactSink();
        try {
            WatchEvents.read(embedded(line), OFFSET, length(line), 3, AT, sink);
        } catch (WatchStreamReader.MalformedLine e) {
            return e.getMessage();
        }
        return outcome(sink);
    }

    private static String viaTree(String line) {
        FactSink sink = new FactSink();
        try {
            WatchEvents.read(line, 3, AT, sink);
        } catch (WatchStreamReader.MalformedLine e) {
            return e.getMessage();
        }
        return outcome(sink);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            POD,
            "{\"type\":\"MODIFIED\",\"object\":" + GPU_POD_OBJECT + "}",
            "{\"object\":" + GPU_POD_OBJECT + ",\"extra\":[1,{\"b\":[]}],\"type\":\"DELETED\"}",
            " \t{\"type\":\"ADDED\",\"object\":" + GPU_POD_OBJECT + "}  ",
    })
    void plainLinesAreBoundFromTheirBytesAsTheTreeBindsThem(String line) {
        assertTrue(WatchEvents.readPlain(embedded(line), OFFSET, length(line), AT, new FactSink()), line);
        assertEquals(viaTree(line), viaBytes(line));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "{\"type\":\"ADDED\",\"object\":{",
            "{\"type\":\"ADDED\",\"object\":{}} {}",
            "[1,2]",
            "null",
            "{\"type\":\"ADDED\",\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"Pod\"}}",
            "{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\"},\"object\":{\"kind\":\"ConfigMap\"}}",
            "{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\",\"kind\":\"Node\"}}",
            "{\"type\":\"ADDED\",\"object\":{\"kind\":5}}",
            "{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\",\"apiVersion\":1}}",
            "{\"type\":1,\"object\":{\"kind\":\"Pod\"}}",
            "{\"type\":\"added\",\"object\":{\"kind\":\"Pod\"}}",
            "{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"Pod\"}}",
            "{\"type\":\"ADDED\",\"object\":{\"kind\":\"ConfigMap\"}}",
            "{\"type\":\"ADDED\",\"object\":{\"kind\":\"ResourceClaim\",\"apiVersion\":\"resource.k8s.io/v1beta1\"}}",
            "{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\",\"metadata\":\"oops\"}}",
            "{\"type\":\"ADDED\",\"object\":{\"kind\":Pod}}",
            "{\"type\":\"ADDED\"}",
            "\uFEFF{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\"}}",
    })
    void everyOtherLineIsLeftToTheTree(String line) {
        FactSink sink = new FactSink();
        assertFalse(WatchEvents.readPlain(embedded(line), OFFSET, length(line), AT, sink), line);
        assertEquals("[] | [] | {}", outcome(sink), "nothing added before handing the line over");
        assertEquals(viaTree(line), viaBytes(line));
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\",\"metadata\":{\"name\":\"\u00ff"})
    void bytesThatAreNotUtf8AreReadAsTheTextTheyDecodeTo(String prefix) {
        byte[] good = (prefix + "\"}}}").getBytes(StandardCharsets.ISO_8859_1); // \u00ff as one byte: not UTF-8
        FactSink sink = new FactSink();
        assertFalse(WatchEvents.readPlain(good, 0, good.length, AT, sink));
        FactSink viaBytes = new FactSink();
        WatchEvents.read(good, 0, good.length, 3, AT, viaBytes);
        FactSink viaTree = new FactSink();
        WatchEvents.read(new String(good, StandardCharsets.UTF_8), 3, AT, viaTree);
        assertEquals(outcome(viaTree), outcome(viaBytes));
        assertEquals(1, viaBytes.skippedCount(), "a pod without a GPU, with its name decoded");
    }
}
