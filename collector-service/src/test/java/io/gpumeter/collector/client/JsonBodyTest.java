package io.gpumeter.collector.client;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.common.problem.ApiProblem;
import io.vertx.mutiny.core.buffer.Buffer;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JsonBodyTest {

    private static List<Buffer> pieces(JsonBody body) {
        return body.pieces().collect().asList().await().atMost(Duration.ofSeconds(5));
    }

    private static byte[] joined(List<Buffer> pieces) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        pieces.forEach(p -> out.writeBytes(p.getBytes()));
        return out.toByteArray();
    }

    @Test
    void aLargeBodyIsSentInPiecesThatJoinToItsBytes() {
        byte[] bytes = new byte[JsonBody.PIECE * 3 + 17];
        new Random(7).nextBytes(bytes);
        JsonBody body = JsonBody.of(bytes);
        List<Buffer> pieces = pieces(body);
        assertEquals(List.of(JsonBody.PIECE, JsonBody.PIECE, JsonBody.PIECE, 17), pieces.stream().map(Buffer::length).toList());
        assertArrayEquals(bytes, joined(pieces));
        assertArrayEquals(bytes, joined(pieces(body)), "every attempt sends the body from its start");
    }

    @Test
    void aBodyOfExactlyOnePieceOrLessIsOnePiece() {
        assertEquals(List.of(JsonBody.PIECE), pieces(JsonBody.of(new byte[JsonBody.PIECE])).stream().map(Buffer::length).toList());
        List<Buffer> small = pieces(JsonBody.of("{}".getBytes()));
        assertEquals(List.of("{}"), small.stream().map(Buffer::toString).toList());
        assertEquals(List.of(0), pieces(JsonBody.of(new byte[0])).stream().map(Buffer::length).toList());
    }

    @Test
    void jsonIsWrittenAcrossPiecesAsTheMapperWritesItWhole() throws Exception {
        ObjectMapper json = new ObjectMapper();
        Map<String, Object> value = Map.of("lines", "é€x".repeat(JsonBody.PIECE / 2), "n", 7);
        byte[] whole = json.writeValueAsBytes(value);
        JsonBody body = JsonBody.writing(json, () -> value, Runnable::run);
        assertArrayEquals(whole, joined(pieces(body)));
    }

    /** Two pieces' worth of text, then waits until the first piece has been sent before it writes the rest. */
    private static WrittenValue halting(CountDownLatch firstSent, AtomicInteger sentBeforeTheEnd) {
        return new WrittenValue(gen -> {
            gen.writeStartArray();
            gen.writeString("é€x".repeat(JsonBody.PIECE));
            try {
                if (firstSent.await(10, TimeUnit.SECONDS)) {
                    sentBeforeTheEnd.incrementAndGet();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            gen.writeString("end");
            gen.writeEndArray();
        });
    }

    @Test
    void aBodyWrittenAsItIsSentGoesOutPieceByPieceAndWholeOnEveryAttempt() throws Exception {
        ObjectMapper json = new ObjectMapper();
        CountDownLatch firstSent = new CountDownLatch(1);
        AtomicInteger sentBeforeTheEnd = new AtomicInteger();
        AtomicInteger written = new AtomicInteger();
        WrittenValue value = halting(firstSent, sentBeforeTheEnd);
        ExecutorService writer = Executors.newSingleThreadExecutor();
        try {
            JsonBody body = JsonBody.writing(json, () -> {
                written.incrementAndGet();
                return value;
            }, writer);
            assertEquals(0, written.get(), "nothing is written before the body is sent");
            List<Buffer> first = body.pieces().onItem().invoke(firstSent::countDown).collect().asList()
                    .await().atMost(Duration.ofSeconds(30));
            assertEquals(1, sentBeforeTheEnd.get(), "the first piece went out while the rest was still to write");
            byte[] whole = json.writeValueAsBytes(halting(new CountDownLatch(0), new AtomicInteger()));
            assertTrue(first.size() > 3, "in pieces: " + first.size());
            assertArrayEquals(whole, joined(first));
            assertArrayEquals(whole, joined(pieces(body)), "a second attempt sends it from its start");
            assertEquals(1, written.get(), "written once for every attempt");
        } finally {
            writer.shutdownNow();
        }
    }

    @Test
    void piecesArriveWholeAndInOrderWhateverTheThreadsThatWriteAndSendThem() {
        ObjectMapper json = new ObjectMapper();
        ExecutorService writer = Executors.newSingleThreadExecutor();
        ExecutorService sender = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < 30; round++) {
                int r = round;
                List<String> value = IntStream.range(0, 150_000).mapToObj(i -> "line " + i + " é€ " + r).toList();
                byte[] whole = json.writeValueAsBytes(value);
                assertTrue(whole.length > 3 * JsonBody.PIECE, whole.length + " bytes");
                JsonBody body = JsonBody.writing(json, () -> value, writer);
                // A first attempt cut after two pieces, as by a connection lost mid-body, while the writer goes on;
                // then a second attempt, which sends the body from its start.
                List<Buffer> cut = body.pieces().emitOn(sender).select().first(2).collect().asList()
                        .await().atMost(Duration.ofSeconds(30));
                assertArrayEquals(Arrays.copyOf(whole, 2 * JsonBody.PIECE), joined(cut), "round " + round);
                List<Buffer> again = body.pieces().emitOn(sender).collect().asList().await().atMost(Duration.ofSeconds(30));
                assertArrayEquals(whole, joined(again), "round " + round);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            writer.shutdownNow();
            sender.shutdownNow();
        }
    }

    @Test
    void aBodyThatCannotBeWrittenFailsItsSending() {
        ExecutorService writer = Executors.newSingleThreadExecutor();
        try {
            JsonBody body = JsonBody.writing(new ObjectMapper(), Object::new, writer);
            assertThrows(RuntimeException.class, () -> pieces(body));
            ApiProblem unwritten = assertThrows(ApiProblem.class, body::requireWritten);
            assertEquals(500, unwritten.status());
            assertTrue(unwritten.getMessage().contains("could not write"), unwritten.getMessage());

            JsonBody written = JsonBody.writing(new ObjectMapper(), () -> List.of("a"), writer);
            assertEquals("[\"a\"]", new String(joined(pieces(written))));
            written.requireWritten();
        } finally {
            writer.shutdownNow();
        }
    }
}
