package io.gpumeter.collector.kubernetes;

import io.gpumeter.common.fact.PodFact;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A request's lines parsed in blocks on several threads give what one thread reading them in turn gives: the same
 * facts in the same order, the same skipped counts, and the same first malformed line.
 */
class ParallelWatchStreamReaderTest {

    private static final Instant AT = Instant.parse("2026-06-01T00:00:00Z");
    private static ExecutorService pool;

    @BeforeAll
    static void start() {
        pool = Executors.newFixedThreadPool(3);
    }

    @AfterAll
    static void stop() {
        pool.shutdownNow();
    }

    /** A pod of its own per line, with now and then a line that is skipped or blank. */
    private static List<String> lines(int count) {
        List<String> lines = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            if (i % 97 == 0) {
                lines.add("{\"type\":\"ADDED\",\"object\":{\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c" + i + "\"}}}");
            } else if (i % 89 == 0) {
                lines.add("   ");
            } else {
                lines.add(WatchStreamReaderTest.GOOD_POD.replace("\"uid\":\"u\"", "\"uid\":\"u" + i + "\"")
                        .replace("\"name\":\"p\"", "\"name\":\"p" + i + "\""));
            }
        }
        return lines;
    }

    private static int read(WatchStreamReader reader, List<String> lines, FactSink sink) throws IOException {
        byte[] body = String.join("\n", lines).getBytes(StandardCharsets.UTF_8);
        return reader.read(new ByteArrayInputStream(body), AT, sink);
    }

    private static WatchStreamReader parallel(int maxLines) {
        return new WatchStreamReader(maxLines, pool, 2);
    }

    @Test
    void manyBlocksGiveTheFactsOfOneThreadInLineOrder() throws IOException {
        List<String> lines = lines(WatchStreamReader.BLOCK * 7 + 13);
        FactSink alone = new FactSink();
        FactSink together = new FactSink();
        int events = read(new WatchStreamReader(100_000), lines, alone);
        assertEquals(events, read(parallel(100_000), lines, together));
        assertEquals(alone.all(), together.all());
        assertEquals(alone.governanceFacts(), together.governanceFacts());
        assertEquals(alone.skippedByReason(), together.skippedByReason());
        assertEquals(Map.of("kind ConfigMap not metered yet", 36), together.skippedByReason());
        assertEquals(WatchStreamReader.BLOCK * 7 + 13 - 36 - 39, together.facts());
    }

    /** Lines of about 3 KB (and one longer than a block's bytes): blocks end by bytes, long before 500 lines. */
    private static List<String> longLines(int count) {
        List<String> lines = lines(count);
        for (int i = 0; i < lines.size(); i++) {
            int padding = i == 250 ? WatchStreamReader.BLOCK_BYTES + 1_000 : 3_000 + i % 7;
            lines.set(i, lines.get(i).replace("\"resourceVersion\":\"7\"",
                    "\"resourceVersion\":\"7\",\"labels\":{\"pad\":\"" + "x".repeat(padding) + "\"}"));
        }
        return lines;
    }

    @Test
    void blocksEndedByTheirBytesGiveEveryFactInLineOrder() throws IOException {
        List<String> lines = longLines(WatchStreamReader.BLOCK + 300);
        FactSink together = new FactSink();
        assertEquals(WatchStreamReader.BLOCK + 300 - 8, read(parallel(100_000), lines, together));
        assertEquals(WatchStreamReader.BLOCK + 300 - 8 - 8, together.facts());
        List<PodFact> pods = together.batch("c").pods();
        List<String> uids = pods.stream().map(PodFact::uid).toList();
        List<String> expected = new ArrayList<>();
        for (int i = 1; i <= WatchStreamReader.BLOCK + 300; i++) {
            if (i % 97 != 0 && i % 89 != 0) {
                expected.add("u" + i);
            }
        }
        assertEquals(expected, uids);
        assertEquals(3_006, pods.get(uids.indexOf("u7")).labels().get("pad").length());
        assertEquals(WatchStreamReader.BLOCK_BYTES + 1_000, pods.get(uids.indexOf("u251")).labels().get("pad").length());
    }

    @Test
    void aMalformedLineAfterBlocksEndedByTheirBytesIsNamedByItsNumber() {
        List<String> lines = longLines(WatchStreamReader.BLOCK + 300);
        lines.set(WatchStreamReader.BLOCK + 120, "{\"type\":\"ADDED\"");
        WatchStreamReader.MalformedLine e = assertThrows(WatchStreamReader.MalformedLine.class,
                () -> read(parallel(100_000), lines, new FactSink()));
        assertEquals(WatchStreamReader.BLOCK + 121, e.line());
    }

    @Test
    void theFirstMalformedLineOfTheStreamIsNamedWhicheverBlockFinishesFirst() {
        List<String> lines = lines(WatchStreamReader.BLOCK * 6);
        lines.set(WatchStreamReader.BLOCK * 4 + 2, "{\"type\":\"ADDED\"");
        lines.set(WatchStreamReader.BLOCK + 7, "{\"type\":\"ADDED\",\"object\":\"pod\"}");
        WatchStreamReader.MalformedLine e = assertThrows(WatchStreamReader.MalformedLine.class,
                () -> read(parallel(100_000), lines, new FactSink()));
        assertEquals(WatchStreamReader.BLOCK + 8, e.line());
    }

    @Test
    void aMalformedLineBeforeTheLimitIsNamedRatherThanTheLimit() {
        List<String> lines = lines(WatchStreamReader.BLOCK * 3);
        lines.set(10, "[1,2]");
        WatchStreamReader.MalformedLine e = assertThrows(WatchStreamReader.MalformedLine.class,
                () -> read(parallel(WatchStreamReader.BLOCK * 2), lines, new FactSink()));
        assertEquals(11, e.line());
    }

    @Test
    void tooManyLinesAreRefusedWhenNoneBeforeTheLimitIsMalformed() {
        List<String> lines = lines(WatchStreamReader.BLOCK * 3);
        assertThrows(WatchStreamReader.TooManyLines.class, () -> read(parallel(WatchStreamReader.BLOCK * 2), lines, new FactSink()));
    }

    @Test
    void parallelismBelowOneIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new WatchStreamReader(10, pool, 0));
    }
}
