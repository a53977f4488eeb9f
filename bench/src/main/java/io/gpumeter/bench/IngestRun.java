package io.gpumeter.bench;

import io.gpumeter.launcher.suite.Service;
import io.gpumeter.launcher.suite.Suite;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * What the ingest benchmarks share: a fresh ledger and collector of their own (the collector's watch off, so that only
 * the pushes reach it) and pushes of text pages to the collector as the admin.
 */
final class IngestRun {

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String authorization;

    IngestRun(Suite suite) {
        this.authorization = "Bearer " + suite.adminToken();
    }

    /** Starts the ledger and the collector on a fresh embedded database under {@code bench/target/<run>}. */
    static Suite start(String run) throws Exception {
        Path root = Path.of("").toAbsolutePath();
        Path state = root.resolve("bench/target/" + run);
        return Suite.builder(root).services(Set.of(Service.LEDGER, Service.COLLECTOR)).freePorts()
                .embeddedDatabase(state.resolve("pgdata")).freshDatabase(true).stateDirectory(state)
                .logDirectory(state.resolve("logs")).jvmOptions(List.of("-XX:+UseParallelGC", "-Xmx1g"))
                .env(Service.COLLECTOR, "GPUMETER_COLLECTOR_WATCH_ENABLED", "false")
                .readyTimeout(Duration.ofMinutes(3)).build().start();
    }

    /** Posts a page and returns the collector's answer; any answer but 200 stops the benchmark. */
    String post(URI endpoint, String body) {
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(endpoint)
                            .header("Authorization", authorization).timeout(Duration.ofMinutes(5))
                            .header("Content-Type", "text/plain").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("collector answered " + response.statusCode() + ": " + response.body());
            }
            return response.body();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
