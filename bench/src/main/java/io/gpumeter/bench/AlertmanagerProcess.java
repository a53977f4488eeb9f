package io.gpumeter.bench;

import io.gpumeter.launcher.suite.Ports;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A real Alertmanager (Debian's prometheus-alertmanager) on a loopback port, routing everything to a receiver that
 * notifies no one: what a bench needs to count the alerts the services post. Absent binary, absent Alertmanager.
 */
final class AlertmanagerProcess implements AutoCloseable {

    private static final String BINARY = "prometheus-alertmanager";
    private static final String CONFIG = """
            route:
              receiver: nobody
              group_by: [alertname]
            receivers:
              - name: nobody
            """;

    private final Process process;
    private final URI url;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private AlertmanagerProcess(Process process, URI url) {
        this.process = process;
        this.url = url;
    }

    /** Starts one under {@code dir} when the binary is on the PATH; empty otherwise. */
    static Optional<AlertmanagerProcess> start(Path dir) throws IOException, InterruptedException {
        Optional<Path> binary = Optional.ofNullable(System.getenv("PATH")).stream()
                .flatMap(p -> List.of(p.split(":")).stream()).map(p -> Path.of(p, BINARY))
                .filter(Files::isExecutable).findFirst();
        if (binary.isEmpty()) {
            return Optional.empty();
        }
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("alertmanager.yml"), CONFIG);
        int port = Ports.anyFree();
        Process p = new ProcessBuilder(binary.get().toString(), "--config.file=" + dir.resolve("alertmanager.yml"),
                "--storage.path=" + dir.resolve("data"), "--web.listen-address=127.0.0.1:" + port,
                "--cluster.listen-address=", "--log.level=warn")
                .redirectErrorStream(true).redirectOutput(dir.resolve("alertmanager.log").toFile()).start();
        AlertmanagerProcess am = new AlertmanagerProcess(p, URI.create("http://127.0.0.1:" + port));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            if (am.get("/-/ready").map(r -> r.statusCode() == 200).orElse(false)) {
                return Optional.of(am);
            }
            Thread.sleep(200);
        }
        am.close();
        throw new IllegalStateException("Alertmanager did not become ready; see " + dir.resolve("alertmanager.log"));
    }

    URI url() {
        return url;
    }

    /** Firing alerts received so far, over every API version ({@code alertmanager_alerts_received_total}). */
    double firingReceived() {
        String page = get("/metrics").map(HttpResponse::body).orElse("");
        double sum = 0;
        for (String line : page.split("\n")) {
            if (line.startsWith("alertmanager_alerts_received_total{") && line.contains("status=\"firing\"")) {
                sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return sum;
    }

    private Optional<HttpResponse<String>> get(String path) {
        try {
            return Optional.of(http.send(HttpRequest.newBuilder(url.resolve(path)).timeout(Duration.ofSeconds(5)).GET().build(),
                    HttpResponse.BodyHandlers.ofString()));
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
