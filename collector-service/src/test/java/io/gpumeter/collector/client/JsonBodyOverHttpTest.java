package io.gpumeter.collector.client;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import org.jboss.resteasy.reactive.client.impl.InputStreamReadStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A body written on one thread while the HTTP client sends it, the way the REST client sends an {@code InputStream}
 * body ({@link JsonBody#stream()}): an {@link InputStreamReadStream} that reads a chunk on a worker thread, writes it
 * to the request and reads the next, ending the request once a read answers the end. The server reads slowly, so that
 * the request's buffers fill and the stream pauses and resumes throughout the body.
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
     * The first piece is sent slowly, and the second is written only once the first is being sent: it follows the
     * first, whole.
     */
    @Test
    void aPieceWrittenWhileTheOneBeforeIsBeingSentFollowsIt() throws Exception {
        ObjectMapper json = new ObjectMapper();
        CountDownLatch firstWritten = new CountDownLatch(1);
        CountDownLatch firstBeingSent = new CountDownLatch(1);
        WrittenValue value = twoPieces(firstWritten, firstBeingSent);
        byte[] whole = json.writeValueAsBytes(twoPieces(new CountDownLatch(0), new CountDownLatch(0)));
        ExecutorService writer = Executors.newSingleThreadExecutor();
        try {
            InputStream body = JsonBody.writing(json, () -> value, writer).stream();
            InputStream slowAtFirst = new FilterInputStream(body) {
                @Override
                public int read(byte[] bytes, int offset, int length) throws IOException {
                    int n = super.read(bytes, offset, length);
                    if (firstBeingSent.getCount() > 0) {
                        firstBeingSent.countDown();
                        sleep(300);
                    }
                    return n;
                }
            };
            assertEquals(HexFormat.of().formatHex(sha256().digest(whole)), send(slowAtFirst));
            assertEquals(0, firstWritten.getCount());
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

    /** Sends a body as the REST client sends an {@code InputStream}, from a thread of no Vert.x context; the digest. */
    private static String send(InputStream body) throws Exception {
        return client.request(HttpMethod.POST, server.actualPort(), "localhost", "/")
                .compose(request -> request.send(new InputStreamReadStream(vertx, body, request, JsonBody.PIECE)))
                .compose(response -> response.body()).map(Buffer::toString)
                .toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
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
                assertEquals(expected, send(JsonBody.writing(json, () -> value, writer).stream()), "round " + round);
            }
        } finally {
            writer.shutdownNow();
        }
    }

    /**
     * A body of one piece, written and ended at once, arrives whole, every time. Sent as a stream of pieces
     * ({@code Multi}) and subscribed off any Vert.x context, one in about a hundred arrived empty: the request's end,
     * handed on the writer's thread, overtook the only piece.
     */
    @Test
    void aBodyOfOnePieceArrivesWholeEveryTime() throws Exception {
        ObjectMapper json = new ObjectMapper();
        ExecutorService writer = Executors.newSingleThreadExecutor();
        try {
            for (int round = 0; round < 300; round++) {
                List<String> value = List.of("pod " + round, "another pod", "a third pod");
                String expected = HexFormat.of().formatHex(sha256().digest(json.writeValueAsBytes(value)));
                assertEquals(expected, send(JsonBody.writing(json, () -> value, writer).stream()), "round " + round);
            }
        } finally {
            writer.shutdownNow();
        }
    }
}
