package io.gpumeter.launcher.replay;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Sends a stream's requests to the collector's replay endpoint, {@code inFlight} at a time, so that the collector
 * reads one while the ledger stores another. The next request starts only once the one before it has been handed over
 * whole: two requests read at once share the cores, and both reach the ledger late; the first, read alone, is being
 * stored while the second is read. A request the collector cannot take now (503: the ledger unreachable or busy; 429;
 * no connection) is sent again after a pause, up to {@code attempts} times, which is safe because a request is stored
 * whole or not at all and facts stored before count as duplicates. The first refusal stops the replay: no request is
 * sent after it, though those already in flight are answered.
 */
public final class ReplayClient {

    /** A request the collector stored, with what it answered. */
    public record Stored(RequestCutter.Span request, long events, long accepted, long duplicates, long skipped,
                         double seconds) {
    }

    /** A request the collector refused or that could not be delivered, in words. */
    public record Refused(RequestCutter.Span request, String reason) {
    }

    /** Every request stored, in order, and the refusals. */
    public record Outcome(List<Stored> stored, List<Refused> refused) {
        public long events() {
            return stored.stream().mapToLong(Stored::events).sum();
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern LINE = Pattern.compile("line (\\d+)");

    private final URI endpoint;
    private final Optional<String> token;
    private final int inFlight;
    private final int attempts;
    private final Duration pause;
    private final Consumer<Stored> progress;

    /**
     * @param endpoint the collector's {@code /api/v1/ingest/kubernetes}, with its {@code cluster} parameter if any
     * @param pause    the wait before the first new attempt, doubled before each next one
     */
    public ReplayClient(URI endpoint, Optional<String> token, int inFlight, int attempts, Duration pause,
                        Consumer<Stored> progress) {
        if (inFlight < 1 || attempts < 1) {
            throw new IllegalArgumentException("at least one request in flight and one attempt");
        }
        this.endpoint = endpoint;
        this.token = token;
        this.inFlight = inFlight;
        this.attempts = attempts;
        this.pause = pause;
        this.progress = progress;
    }

    public Outcome replay(RequestCutter requests) throws IOException, InterruptedException {
        ExecutorService senders = Executors.newFixedThreadPool(inFlight);
        Semaphore slots = new Semaphore(inFlight);
        AtomicBoolean stop = new AtomicBoolean();
        List<Future<Object>> sent = new ArrayList<>();
        try {
            while (true) {
                slots.acquire();
                Optional<RequestCutter.Request> next = stop.get() ? Optional.empty() : requests.next();
                if (next.isEmpty()) {
                    slots.release();
                    break;
                }
                RequestCutter.Request request = next.get();
                CountDownLatch handedOver = new CountDownLatch(1);
                sent.add(senders.submit(() -> {
                    try {
                        Object answer = send(request, handedOver::countDown);
                        if (answer instanceof Refused) {
                            stop.set(true);
                        } else {
                            progress.accept((Stored) answer);
                        }
                        return answer;
                    } finally {
                        handedOver.countDown();
                        slots.release();
                    }
                }));
                handedOver.await();
            }
            List<Stored> stored = new ArrayList<>();
            List<Refused> refused = new ArrayList<>();
            for (Future<Object> answer : sent) {
                Object a = answer.get();
                if (a instanceof Stored s) {
                    stored.add(s);
                } else {
                    refused.add((Refused) a);
                }
            }
            refused.sort(Comparator.comparingInt(r -> r.request().index()));
            return new Outcome(stored, refused);
        } catch (ExecutionException e) {
            throw new IllegalStateException("a request could not be sent", e.getCause());
        } finally {
            senders.shutdownNow();
        }
    }

    /**
     * One request, sent again while the collector cannot take it now; a {@link Stored} or a {@link Refused}.
     * {@code handedOver} runs once its body has been written whole.
     */
    private Object send(RequestCutter.Request request, Runnable handedOver) throws InterruptedException {
        Duration wait = pause;
        String last = "";
        for (int attempt = 1; attempt <= attempts; attempt++) {
            if (attempt > 1) {
                Thread.sleep(wait.toMillis());
                wait = wait.multipliedBy(2);
            }
            long start = System.nanoTime();
            Answer answer;
            try {
                answer = post(request.body(), handedOver);
            } catch (IOException e) {
                last = request.span() + ": no answer from " + endpoint.getHost() + ":" + endpoint.getPort() + " ("
                        + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()) + ")";
                continue;
            }
            int status = answer.status();
            if (status == 200) {
                return stored(request.span(), answer.body(), (System.nanoTime() - start) / 1e9);
            }
            last = refusal(request.span(), status, answer.body());
            if (status != 503 && status != 429) {
                return new Refused(request.span(), last);
            }
        }
        return new Refused(request.span(), last + "; gave up after " + attempts + " attempts");
    }

    private record Answer(int status, String body) {
    }

    /**
     * One POST of a request's bytes. The JDK's connection with a fixed length writes the bytes to the socket as they
     * are; its newer client copied them through its own buffers at a third of a core, on machines where the client
     * shares its cores with the collector.
     */
    private Answer post(byte[] body, Runnable handedOver) throws IOException {
        HttpURLConnection connection = (HttpURLConnection) endpoint.toURL().openConnection();
        try {
            connection.setConnectTimeout(5_000);
            connection.setReadTimeout((int) Duration.ofMinutes(15).toMillis());
            connection.setRequestMethod("POST");
            connection.setDoOutput(true);
            connection.setFixedLengthStreamingMode(body.length);
            connection.setRequestProperty("Content-Type", "application/x-ndjson");
            token.ifPresent(t -> connection.setRequestProperty("Authorization", "Bearer " + t));
            try (OutputStream out = connection.getOutputStream()) {
                out.write(body);
            }
            handedOver.run();
            int status = connection.getResponseCode();
            InputStream answer = status >= 400 ? connection.getErrorStream() : connection.getInputStream();
            try (InputStream in = answer) {
                return new Answer(status, in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8));
            }
        } finally {
            connection.disconnect();
        }
    }

    private static Stored stored(RequestCutter.Span request, String body, double seconds) {
        try {
            JsonNode answer = JSON.readTree(body);
            return new Stored(request, answer.path("events").asLong(), answer.path("accepted").asLong(),
                    answer.path("duplicates").asLong(), answer.path("skipped").asLong(), seconds);
        } catch (IOException e) {
            throw new IllegalStateException("the collector's answer is not JSON: " + body, e);
        }
    }

    /** The collector's problem in words, a line it names counted in the whole stream. */
    static String refusal(RequestCutter.Span request, int status, String body) {
        String detail = body;
        String field = null;
        try {
            JsonNode problem = JSON.readTree(body);
            detail = problem.path("detail").asText(body);
            field = problem.path("field").asText(null);
        } catch (IOException e) {
            // not a problem document: its text is the detail
        }
        String at = "";
        Matcher line = field == null ? null : LINE.matcher(field);
        if (line != null && line.matches()) {
            at = ", at line " + (request.firstLine() + Long.parseLong(line.group(1)) - 1) + " of the stream";
        }
        return request + " refused with HTTP " + status + at + ": " + detail;
    }
}
