package io.gpumeter.launcher.suite;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.BooleanSupplier;

/** Waits until every given service answers 200 on {@code /q/health/ready} of its management port, at the address the services listen on. */
final class ReadinessProbe {

    private static final Duration POLL = Duration.ofMillis(300);

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    /** Host part of the URL, e.g. {@code 127.0.0.1} or {@code [::1]}. */
    private final String host;

    ReadinessProbe(String host) {
        this.host = host;
    }

    /**
     * Returns once all are ready; throws, with the log tail of the culprit, when one dies or time runs out, or
     * as soon as {@code cancelled} turns true.
     */
    void awaitReady(Collection<ServiceProcess> processes, Duration timeout, BooleanSupplier cancelled) {
        List<ServiceProcess> waiting = new ArrayList<>(processes);
        Instant deadline = Instant.now().plus(timeout);
        while (!waiting.isEmpty()) {
            if (cancelled.getAsBoolean()) {
                throw new SuiteException("start-up cancelled: the suite is stopping");
            }
            for (ServiceProcess p : List.copyOf(waiting)) {
                if (!p.isAlive()) {
                    throw new SuiteException(p.service().module() + " exited during start-up. Last lines of "
                            + p.logFile() + ":\n" + p.logTail());
                }
                if (isReady(p.managementPort())) {
                    p.markReady();
                    waiting.remove(p);
                }
            }
            if (waiting.isEmpty()) {
                return;
            }
            if (Instant.now().isAfter(deadline)) {
                ServiceProcess first = waiting.get(0);
                throw new SuiteException(first.service().module() + " was not ready on management port " + first.managementPort()
                        + " after " + timeout.toSeconds() + " s (still waiting for "
                        + waiting.stream().map(w -> w.service().id()).toList() + "). Last lines of "
                        + first.logFile() + ":\n" + first.logTail());
            }
            try {
                Thread.sleep(POLL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SuiteException("interrupted while waiting for the services to become ready", e);
            }
        }
    }

    boolean isReady(int port) {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://" + host + ":" + port + "/q/health/ready"))
                .timeout(Duration.ofSeconds(2)).GET().build();
        try {
            return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
