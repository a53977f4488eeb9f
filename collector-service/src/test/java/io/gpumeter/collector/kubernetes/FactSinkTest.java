package io.gpumeter.collector.kubernetes;

import io.gpumeter.common.fact.FactBundle;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A replay request's sink hands its facts over in one bundle, once, and keeps only its counts of skipped events. */
class FactSinkTest {

    private static final Instant AT = Instant.parse("2026-06-01T00:00:00Z");

    private static FactSink read(List<String> lines) throws IOException {
        FactSink sink = new FactSink();
        byte[] body = String.join("\n", lines).getBytes(StandardCharsets.UTF_8);
        new WatchStreamReader(1000).read(new ByteArrayInputStream(body), AT, sink);
        return sink;
    }

    @Test
    void theBundleHoldsEveryFactAndTheSinkNoneAfterwards() throws IOException {
        FactSink sink = read(List.of(WatchStreamReaderTest.GOOD_POD,
                WatchStreamReaderTest.GOOD_POD.replace("\"uid\":\"u\"", "\"uid\":\"u2\""),
                "{\"type\":\"ADDED\",\"object\":{\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c\"}}}"));
        assertEquals(2, sink.facts());
        Map<String, Integer> skipped = sink.skippedByReason();

        FactBundle bundle = sink.handOver("lab");

        assertNotNull(bundle.facts());
        assertEquals("lab", bundle.facts().cluster());
        assertEquals(List.of("u", "u2"), bundle.facts().pods().stream().map(p -> p.uid()).toList());
        assertEquals(2, bundle.expanded().governance().podStatuses().size(), "each pod's governance view goes too");
        assertEquals(0, sink.facts());
        assertTrue(sink.governanceFacts().isEmpty());
        assertTrue(sink.all().isEmpty());
        assertEquals(skipped, sink.skippedByReason(), "the counts of skipped events stay");
        assertEquals(1, sink.skippedCount());
    }

    @Test
    void aSinkHandsItsFactsOverOnce() throws IOException {
        FactSink sink = read(List.of(WatchStreamReaderTest.GOOD_POD));
        sink.handOver("lab");

        assertThrows(IllegalStateException.class, () -> sink.handOver("lab"),
                "a second bundle would be empty, and stored as if the request had no facts");
    }
}
