package io.gpumeter.launcher.replay;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

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
import java.util.function.Function;

/**
 * A stand-in collector's replay endpoint: keeps each body it takes, and answers what {@link #answer} says, as the
 * collector would. Registered as a test's extension ({@code @RegisterExtension}), it stops after each test.
 */
public final class StandInCollector implements AutoCloseable, AfterEachCallback {
    private final HttpServer server;
    private final ExecutorService threads = Executors.newFixedThreadPool(8);
    public final List<String> queries = new CopyOnWriteArrayList<>();
    public final List<String> bodies = new CopyOnWriteArrayList<>();
    public final List<String> authorizations = new CopyOnWriteArrayList<>();
    public final AtomicInteger open = new AtomicInteger();
    public final AtomicInteger mostOpen = new AtomicInteger();
    public final AtomicInteger calls = new AtomicInteger();
    public volatile Function<Integer, Integer> answer = call -> 200;
    /** What happened, in order: "arrived N" as request N's headers came, "resumed N" when its body was read on. */
    public final List<String> happenings = new CopyOnWriteArrayList<>();
    /** Milliseconds the first request's body is left unread halfway, 0 for none. */
    public volatile long pauseInFirstBody;
    /**
     * Whether the first request is answered only once the second has arrived (within 30 s), so that a client which
     * opens the second request while the first is still open is seen to, however slowly the machine runs.
     */
    public volatile boolean answerFirstOnceSecondArrives;
    private final AtomicInteger arrivals = new AtomicInteger();
    private final CountDownLatch secondArrived = new CountDownLatch(1);
    public volatile String refusal = "{\"status\":400,\"field\":\"line 3\",\"detail\":\"line 3: not valid JSON\"}";

    private StandInCollector() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(threads);
        server.createContext("/api/v1/ingest/kubernetes", this::handle);
        server.start();
    }

    /** A stand-in listening on a free port. */
    public static StandInCollector started() {
        try {
            return new StandInCollector();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        close();
    }

    /** A stream of {@code lines} watch-event lines, each naming its line number. */
    public static String stream(int lines) {
        StringBuilder out = new StringBuilder();
        for (int i = 1; i <= lines; i++) {
            out.append("{\"type\":\"ADDED\",\"line\":").append(i).append("}\n");
        }
        return out.toString();
    }

    /** Where it listens, as a collector's address. */
    public String base() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    public URI endpoint() {
        return URI.create(base() + "/api/v1/ingest/kubernetes?cluster=east-1");
    }

    private void handle(HttpExchange exchange) throws IOException {
        mostOpen.accumulateAndGet(open.incrementAndGet(), Math::max);
        try {
            int arrival = arrivals.incrementAndGet();
            happenings.add("arrived " + arrival);
            if (arrival == 2) {
                secondArrived.countDown();
            }
            String body = new String(read(exchange, arrival), StandardCharsets.UTF_8);
            authorizations.add(String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
            queries.add(String.valueOf(exchange.getRequestURI().getQuery()));
            int status = answer.apply(calls.incrementAndGet());
            Thread.sleep(100); // long enough for the next request to be open meanwhile
            if (arrival == 1 && answerFirstOnceSecondArrives) {
                secondArrived.await(30, TimeUnit.SECONDS);
            }
            String reply;
            if (status == 200) {
                bodies.add(body);
                long events = body.lines().filter(l -> !l.isBlank()).count();
                reply = "{\"cluster\":\"east-1\",\"events\":" + events + ",\"accepted\":" + (events - 1)
                        + ",\"duplicates\":1,\"skipped\":0}";
            } else if (status == 503) {
                reply = "{\"status\":503,\"detail\":\"the ledger is unavailable; nothing of this request is stored, send it again\"}";
            } else {
                reply = refusal;
            }
            byte[] bytes = reply.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", status == 200 ? "application/json" : "application/problem+json");
            exchange.sendResponseHeaders(status, bytes.length);
            exchange.getResponseBody().write(bytes);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            open.decrementAndGet();
            exchange.close();
        }
    }

    private byte[] read(HttpExchange exchange, int arrival) throws IOException, InterruptedException {
        if (arrival != 1 || pauseInFirstBody == 0) {
            return exchange.getRequestBody().readAllBytes();
        }
        long length = Long.parseLong(exchange.getRequestHeaders().getFirst("Content-Length"));
        byte[] half = exchange.getRequestBody().readNBytes((int) (length / 2));
        Thread.sleep(pauseInFirstBody);
        happenings.add("resumed " + arrival);
        byte[] rest = exchange.getRequestBody().readAllBytes();
        byte[] all = new byte[half.length + rest.length];
        System.arraycopy(half, 0, all, 0, half.length);
        System.arraycopy(rest, 0, all, half.length, rest.length);
        return all;
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
