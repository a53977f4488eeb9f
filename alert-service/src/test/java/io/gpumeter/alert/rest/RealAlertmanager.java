package io.gpumeter.alert.rest;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import org.awaitility.core.ConditionTimeoutException;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;

/**
 * The real Alertmanager (Debian's prometheus-alertmanager) on loopback ports, routing gpumeter's alerts back to this
 * service's webhook with a bearer token, as k8s/monitoring/alertmanager.yml does but with one-second timers. The
 * service's test port is fixed here so that Alertmanager's configuration can name it. Without the binary nothing is
 * started and {@link #available()} is false.
 */
public class RealAlertmanager implements QuarkusTestResourceLifecycleManager {

    static final String TOKEN = "am-webhook-token";
    static final String TOOL = "prometheus-alertmanager";

    private static Path dir;
    private static Path binary;
    private static int port;
    private static Process process;

    static boolean available() {
        return binary != null;
    }

    static String url() {
        return "http://127.0.0.1:" + port;
    }

    @Override
    public Map<String, String> start() {
        int servicePort = freePort();
        port = freePort();
        binary = find().orElse(null);
        if (binary != null) {
            try {
                dir = Files.createTempDirectory("gpumeter-alertmanager");
                Files.writeString(dir.resolve("alertmanager.yml"), config(servicePort));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            launch();
        }
        return Map.of("quarkus.http.test-port", String.valueOf(servicePort),
                "quarkus.rest-client.alertmanager.url", url(),
                "quarkus.rest-client.alertmanager.connect-timeout", "500",
                "gpumeter.alert.webhook.token", TOKEN);
    }

    @Override
    public void stop() {
        halt();
    }

    /** Stops Alertmanager, as an outage would. */
    static synchronized void halt() {
        if (process != null) {
            process.destroy();
            try {
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            process = null;
        }
    }

    /** Starts it again on the same port, configuration and storage. */
    static synchronized void launch() {
        List<String> command = new ArrayList<>(List.of(binary.toString(), "--config.file=" + dir.resolve("alertmanager.yml"),
                "--storage.path=" + dir.resolve("data"), "--web.listen-address=127.0.0.1:" + port,
                "--cluster.listen-address=", "--log.level=warn"));
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("alertmanager.log").toFile())).start();
        } catch (IOException e) {
            throw new UncheckedIOException("could not start " + binary, e);
        }
        try {
            await("Alertmanager to become ready").atMost(Duration.ofSeconds(20)).until(RealAlertmanager::ready);
        } catch (ConditionTimeoutException e) {
            throw new IllegalStateException("Alertmanager did not become ready; see " + dir.resolve("alertmanager.log"), e);
        }
    }

    private static boolean ready() {
        try {
            HttpURLConnection c = (HttpURLConnection) URI.create(url() + "/-/ready").toURL().openConnection();
            c.setConnectTimeout(200);
            c.setReadTimeout(500);
            return c.getResponseCode() == 200;
        } catch (IOException e) {
            return false;
        }
    }

    private static String config(int servicePort) {
        return """
                global:
                  resolve_timeout: 5m
                route:
                  receiver: default
                  group_by: [alertname]
                  routes:
                    - receiver: gpumeter-alert-service
                      matchers:
                        - gpumeter="true"
                      group_by: [alertname, node, gpu_uuid, namespace, pod]
                      group_wait: 1s
                      group_interval: 1s
                      repeat_interval: 1h
                      continue: true
                receivers:
                  - name: default
                  - name: gpumeter-alert-service
                    webhook_configs:
                      - url: http://127.0.0.1:%d/api/v1/alertmanager/webhook
                        send_resolved: true
                        max_alerts: 0
                        http_config:
                          authorization:
                            type: Bearer
                            credentials: %s
                """.formatted(servicePort, TOKEN);
    }

    private static Optional<Path> find() {
        List<String> dirs = new ArrayList<>(List.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)));
        dirs.add("/usr/bin");
        dirs.add("/usr/local/bin");
        for (String name : List.of(TOOL, "alertmanager")) {
            for (String d : dirs) {
                Path candidate = Path.of(d.isEmpty() ? "." : d, name);
                if (Files.isExecutable(candidate)) {
                    return Optional.of(candidate);
                }
            }
        }
        return Optional.empty();
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
