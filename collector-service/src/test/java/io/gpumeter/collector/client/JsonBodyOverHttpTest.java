package io.gpumeter.collector.client;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.vertx.ReadStreamSubscriber;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.streams.ReadStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A body written on one thread while the HTTP client sends it, the way the REST client sends a {@code Multi} body: a
 * {@link ReadStreamSubscriber} piped into the request, paused whenever the connection's buffers are full and resumed
 * on the client's event loop. The server reads slowly, so that the pipe pauses and resumes throughout the body.
 */
class JsonBodyOverHttpTest {

    private static Vertx vertx;
    private static HttpServer server;
    private static HttpClient client;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        server = vertx.createHttpServer().requestHandler(JsonBodyOverHttpTest::digestSlowly)
                .listen(0).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        client = vertx.createHttpClient();
    }

    @AfterAll
    static void stop() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    /** Answers the SHA-256 of the body as it arrived, pausing now and then as a busy reader does. */
    private static void digestSlowly(HttpServerRequest request) {
        MessageDigest digest = sha256();
        request.handler(chunk -> {
            digest.update(chunk.getBytes());
            if (ThreadLocalRandom.current().nextInt(8) == 0) {
                request.pause();
                vertx.setTimer(1, ignored -> request.resume());
            }
        });
        request.endHandler(ignored -> request.response().end(HexFormat.of().formatHex(digest.digest())));
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Two big strings, the first piece handed on while the first is written; the second is written only once the
     * first piece is being sent (and the sending of it is slow), so that the second piece arrives meanwhile.
     */
    private static WrittenValue twoPieces(CountDownLatch firstWritten, CountDownLatch firstBeingSent) {
        return new WrittenValue(gen -> {
            gen.writeStartArray();
            gen.writeString("a".repeat(JsonBody.PIECE + JsonBody.PIECE / 2));
            gen.flush();
            firstWritten.countDown();
            try {
                firstBeingSent.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            gen.writeString("b".repeat(JsonBody.PIECE));
            gen.writeEndArray();
        });
    }

    /**
     * The stream the REST client reads a {@code Multi} body through hands an item to the request outside its lock, so
     * an item arriving on the writer's thread while the event loop, resuming the stream, still hands on the one
     * before would overtake it: the body then breaks at a piece's boundary. The pieces are handed on the event loop
     * the body was subscribed from, one after the other.
     */
    @Test
    void aPieceWrittenWhileTheOneBeforeIsBeingSentFollowsIt() throws Exception {
        ObjectMapper json = new ObjectMapper();
        CountDownLatch firstWritten = new CountDownLatch(1);
        CountDownLatch firstBeingSent = new CountDownLatch(1);
        WrittenValue value = twoPieces(firstWritten, firstBeingSent);
        byte[] whole = json.writeValueAsBytes(twoPieces(new CountDownLatch(0), new CountDownLatch(0)));
        ExecutorService writer = Executors.newSingleThreadExecutor();
        Context context = vertx.getOrCreateContext();
        List<byte[]> sent = new CopyOnWriteArrayList<>();
        CompletableFuture<ReadStream<Buffer>> stream = new CompletableFuture<>();
        CompletableFuture<Void> ended = new CompletableFuture<>();
        try {
            JsonBody body = JsonBody.writing(json, () -> value, writer);
            context.runOnContext(ignored -> {
                ReadStream<Buffer> pieces = ReadStreamSubscriber.asReadStream(body.pieces(),
                        io.vertx.mutiny.core.buffer.Buffer::getDelegate);
                pieces.pause();
                pieces.endHandler(end -> ended.complete(null));
                pieces.handler(piece -> {
                    if (sent.isEmpty() && firstBeingSent.getCount() > 0) { // the first piece, sent slowly
                        firstBeingSent.countDown();
                        sleep(300);
                    }
                    sent.add(piece.getBytes());
                });
                stream.complete(pieces);
            });
            ReadStream<Buffer> pieces = stream.get(10, TimeUnit.SECONDS);
            assertTrue(firstWritten.await(10, TimeUnit.SECONDS));
            context.runOnContext(ignored -> pieces.resume()); // as the request's drain handler does
            ended.get(30, TimeUnit.SECONDS);

            ByteArrayOutputStream joined = new ByteArrayOutputStream();
            sent.forEach(joined::writeBytes);
            assertArrayEquals(whole, joined.toByteArray(), "pieces in the order written: " + sent.size());
        } finally {
            writer.shutdownNow();
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void aBodyWrittenWhileItIsSentArrivesWholeAndInOrder() throws Exception {
        ObjectMapper json = new ObjectMapper();
        ExecutorService writer = Executors.newSingleThreadExecutor();
        try {
            for (int round = 0; round < 6; round++) {
                int r = round;
                List<String> value = IntStream.range(0, 400_000).mapToObj(i -> "line " + i + " of round " + r).toList();
                String expected = HexFormat.of().formatHex(sha256().digest(json.writeValueAsBytes(value)));
                JsonBody body = JsonBody.writing(json, () -> value, writer);

                String received = client.request(HttpMethod.POST, server.actualPort(), "localhost", "/")
                        .compose(request -> request.send(ReadStreamSubscriber.asReadStream(body.pieces(),
                                io.vertx.mutiny.core.buffer.Buffer::getDelegate)))
                        .compose(response -> response.body()).map(Buffer::toString)
                        .toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);

                assertEquals(expected, received, "round " + round);
            }
        } finally {
            writer.shutdownNow();
        }
    }
}
