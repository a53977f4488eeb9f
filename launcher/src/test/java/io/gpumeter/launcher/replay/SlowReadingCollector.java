package io.gpumeter.launcher.replay;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A collector that stops reading its first request halfway through the body for a while, and answers it only once a
 * second request has arrived: what a client that streams its requests is seen by. This is the one stand-in not on
 * common's stand-in server, because WireMock reads a body whole before any of its hooks sees the request, so it cannot
 * leave one half unread. It stores every request, answering that it held the events the test said each holds.
 */
final class SlowReadingCollector implements AutoCloseable {

    private final HttpServer server;
    private final ExecutorService threads = Executors.newFixedThreadPool(4);
    private final long pauseMillis;
    private final int eventsPerRequest;
    private final AtomicInteger open = new AtomicInteger();
    private final AtomicInteger mostOpen = new AtomicInteger();
    private final AtomicInteger arrivals = new AtomicInteger();
    private final CountDownLatch secondArrived = new CountDownLatch(1);
    /** What happened, in order: "arrived N" as request N's headers came, "resumed N" when its body was read on. */
    final List<String> happenings = new CopyOnWriteArrayList<>();

    SlowReadingCollector(long pauseMillis, int eventsPerRequest) {
        this.pauseMillis = pauseMillis;
        this.eventsPerRequest = eventsPerRequest;
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.setExecutor(threads);
        server.createContext(StandInCollector.REPLAY, this::handle);
        server.start();
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + StandInCollector.REPLAY + "?cluster=east-1");
    }

    int mostOpen() {
        return mostOpen.get();
    }

    private void handle(HttpExchange exchange) throws IOException {
        mostOpen.accumulateAndGet(open.incrementAndGet(), Math::max);
        try {
            int arrival = arrivals.incrementAndGet();
            happenings.add("arrived " + arrival);
            if (arrival == 2) {
                secondArrived.countDown();
            }
            read(exchange, arrival);
            if (arrival == 1) {
                // so that a client which opens the second request while the first is still open is seen to, however
                // slowly the machine runs
                secondArrived.await(30, TimeUnit.SECONDS);
            }
            byte[] reply = ("{\"cluster\":\"east-1\",\"events\":" + eventsPerRequest + ",\"accepted\":" + eventsPerRequest
                    + ",\"duplicates\":0,\"skipped\":0}").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, reply.length);
            exchange.getResponseBody().write(reply);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            open.decrementAndGet();
            exchange.close();
        }
    }

    /** Reads the body; the first request's second half only after the pause. */
    private void read(HttpExchange exchange, int arrival) throws IOException, InterruptedException {
        if (arrival == 1) {
            long length = Long.parseLong(exchange.getRequestHeaders().getFirst("Content-Length"));
            exchange.getRequestBody().readNBytes((int) (length / 2));
            Thread.sleep(pauseMillis);
            happenings.add("resumed " + arrival);
        }
        exchange.getRequestBody().readAllBytes();
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
