package io.gpumeter.collector.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.gpumeter.collector.client.JsonBody;
import io.gpumeter.collector.kubernetes.FactSink;
import io.gpumeter.collector.kubernetes.WatchStreamReader;
import io.gpumeter.common.fact.BundleResult;
import io.gpumeter.common.fact.FactBundle;
import io.gpumeter.common.fact.GovernanceBatch;
import io.gpumeter.common.fact.IngestResult;
import io.gpumeter.common.json.InstantJson;
import io.gpumeter.common.json.PodVersionJson;
import io.vertx.mutiny.core.buffer.Buffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A bundle sent while its request is read is, once finished, the bundle written whole; its delivery starts with the
 * first pod versions, before the last line is read; an abandoned one is JSON the ledger cannot read.
 */
class StreamedBundleTest {

    private static final Instant AT = Instant.parse("2026-06-01T00:00:00Z");
    private static final BundleResult STORED = new BundleResult(new IngestResult(1, 0), new IngestResult(1, 0));
    private static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS).registerModule(PodVersionJson.module());
    private static ExecutorService pool;

    static {
        new InstantJson().customize(JSON);
    }

    @BeforeAll
    static void start() {
        pool = Executors.newCachedThreadPool();
    }

    @AfterAll
    static void stop() {
        pool.shutdownNow();
    }

    static String pod(int i) {
        return "{\"type\":\"MODIFIED\",\"object\":{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"p-" + i
                + "\",\"namespace\":\"ml\",\"uid\":\"u" + i + "\",\"resourceVersion\":\"" + (100 + i) + "\",\"labels\":{\"team\":\"t"
                + (i % 7) + "\"}},\"spec\":{\"nodeName\":\"n" + (i % 5) + "\",\"containers\":[{\"name\":\"a\",\"resources\":"
                + "{\"limits\":{\"nvidia.com/gpu\":\"" + (1 + i % 2) + "\"}}}]},\"status\":{\"phase\":\"Running\",\"conditions\":"
                + "[{\"type\":\"PodScheduled\",\"status\":\"True\",\"lastTransitionTime\":\"2026-05-01T00:00:0" + (i % 10) + "Z\"}]}}}";
    }

    static final String NAMESPACE = "{\"type\":\"ADDED\",\"object\":{\"kind\":\"Namespace\",\"apiVersion\":\"v1\",\"metadata\":"
            + "{\"name\":\"ml\",\"uid\":\"ns\",\"resourceVersion\":\"1\",\"labels\":{\"gpumeter.io/tenant\":\"acme\"}}}}";

    static byte[] lines(int from, int to, String... more) {
        List<String> lines = new ArrayList<>();
        for (int i = from; i < to; i++) {
            lines.add(pod(i));
            if (i % 300 == 0) {
                lines.add(NAMESPACE);
            }
        }
        lines.addAll(List.of(more));
        return (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8);
    }

    /** What a delivery was sent, read to its end, and how many deliveries began. */
    static final class Ledger {
        final AtomicReference<byte[]> body = new AtomicReference<>();
        final AtomicInteger deliveries = new AtomicInteger();
        final CountDownLatch begun = new CountDownLatch(1);

        BundleResult deliver(JsonBody sent) {
            deliveries.incrementAndGet();
            begun.countDown();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            for (Buffer piece : sent.pieces().collect().asList().await().atMost(Duration.ofSeconds(30))) {
                out.writeBytes(piece.getBytes());
            }
            body.set(out.toByteArray());
            return STORED;
        }
    }

    static FactBundle carrying(FactSink sink) {
        GovernanceBatch governed = sink.governanceBatch("east-1");
        return FactBundle.carrying(sink.batch("east-1"), governed.size() == 0 ? null : governed);
    }

    @Test
    void aFinishedBundleIsTheBundleWrittenWholeAndWasSentBeforeTheLastLineWasRead() throws Exception {
        Ledger ledger = new Ledger();
        StreamedBundle streamed = new StreamedBundle(JSON, "east-1", ledger::deliver, pool);
        // The rest of the request is only there once the delivery has begun: a bundle written at the end would wait
        // here until the latch gives up. The first half is more than the blocks in flight (three of 500 lines), so
        // the first block is gathered while it is read.
        InputStream secondHalf = new InputStream() {
            private InputStream rest;

            @Override
            public int read() throws IOException {
                return open().read();
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                return open().read(b, off, len);
            }

            private InputStream open() throws IOException {
                if (rest == null) {
                    try {
                        assertTrue(ledger.begun.await(20, TimeUnit.SECONDS), "the delivery began while lines were still read");
                    } catch (InterruptedException e) {
                        throw new IOException(e);
                    }
                    rest = new ByteArrayInputStream(lines(2_100, 2_800));
                }
                return rest;
            }
        };
        FactSink sink = new FactSink();
        int events = new WatchStreamReader(100_000, pool, 2).read(
                new SequenceInputStream(new ByteArrayInputStream(lines(0, 2_100)), secondHalf), AT, sink, streamed);

        assertTrue(streamed.started());
        assertEquals(2_800 + 10, events);
        FactBundle whole = carrying(sink);
        assertFalse(whole.carriedStatuses().isEmpty(), "the views go carried by their pod versions");
        assertEquals(STORED, streamed.finish(whole));
        assertEquals(1, ledger.deliveries.get());
        assertSentAsWritten(whole, ledger.body.get());
    }

    /** The same bundle, the pod versions in the very bytes the mapper writes them, which the ledger stores as they came. */
    static void assertSentAsWritten(FactBundle whole, byte[] sent) throws IOException {
        assertEquals(whole, JSON.readValue(sent, FactBundle.class));
        String pods = new String(JSON.writeValueAsBytes(whole.facts().pods()), StandardCharsets.UTF_8);
        assertTrue(new String(sent, StandardCharsets.UTF_8).contains("\"pods\":" + pods));
    }

    @Test
    void viewsSentWholeAreWrittenWholeAfterThePodVersions() throws Exception {
        Ledger ledger = new Ledger();
        StreamedBundle streamed = new StreamedBundle(JSON, "east-1", ledger::deliver, pool);
        FactSink sink = new FactSink();
        new WatchStreamReader(100_000, pool, 2).read(new ByteArrayInputStream(lines(0, 700)), AT, sink, streamed);
        FactBundle whole = carrying(sink).expanded(); // every view in governance.podStatuses, none carried
        assertTrue(whole.carriedStatuses().isEmpty());
        assertEquals(700, whole.governance().podStatuses().size());

        streamed.finish(whole);
        assertSentAsWritten(whole, ledger.body.get());
    }

    @Test
    void anAbandonedBundleEndsInsideItsJsonAfterItsDeliveryIsAnswered() throws Exception {
        Ledger ledger = new Ledger();
        StreamedBundle streamed = new StreamedBundle(JSON, "east-1", ledger::deliver, pool);
        FactSink sink = new FactSink();
        WatchStreamReader.MalformedLine malformed = assertThrows(WatchStreamReader.MalformedLine.class,
                () -> new WatchStreamReader(100_000, pool, 2).read(
                        new ByteArrayInputStream(lines(0, 1_200, "{\"type\":\"ADDED\",")), AT, sink, streamed));
        assertEquals(1_205, malformed.line());
        assertTrue(streamed.started(), "the pod versions of the blocks before the malformed line went out");

        streamed.abandon();
        byte[] sent = ledger.body.get();
        assertTrue(sent.length > 100_000, sent.length + " bytes");
        assertThrows(JsonProcessingException.class, () -> JSON.readTree(sent), "the ledger cannot read it, so stores none of it");
        assertEquals(1, ledger.deliveries.get());
    }

    @Test
    void aRequestWithoutPodVersionsSendsNothingWhileRead() throws Exception {
        Ledger ledger = new Ledger();
        StreamedBundle streamed = new StreamedBundle(JSON, "east-1", ledger::deliver, pool);
        byte[] namespaces = (NAMESPACE + "\n" + NAMESPACE + "\n").getBytes(StandardCharsets.UTF_8);
        new WatchStreamReader(100_000, pool, 2).read(new ByteArrayInputStream(namespaces), AT, new FactSink(), streamed);
        assertFalse(streamed.started());
        streamed.abandon();
        assertEquals(0, ledger.deliveries.get());
        assertNull(ledger.body.get());
    }
}
