package io.gpumeter.bench;

import io.gpumeter.launcher.db.DatabaseConnection;
import io.gpumeter.launcher.suite.Service;
import io.gpumeter.launcher.suite.Suite;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Counts, over a number of evaluation periods, the rule evaluations two alert-service replicas ran (from their
 * /q/metrics), the alerts they had accepted by Alertmanager, and the firing alerts a real Alertmanager received. Two
 * replicas should evaluate once per period between them, and each evaluation should post each firing alert once.
 */
final class AlertCount {

    private final List<Suite> replicas;
    private final DatabaseConnection db;
    private final Optional<AlertmanagerProcess> alertmanager;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    AlertCount(Suite first, Suite second, DatabaseConnection db, Optional<AlertmanagerProcess> alertmanager) {
        this.replicas = List.of(first, second);
        this.db = db;
        this.alertmanager = alertmanager;
    }

    /** Prints the counts over {@code periods} periods; answers whether the replicas ran and posted as one would. */
    boolean measure(Duration period, int periods) throws InterruptedException, SQLException {
        long firing = awaitFiring(Duration.ofSeconds(90));
        if (firing == 0) {
            System.out.println("alerts: none fired within 90 s; nothing to count");
            return false;
        }
        Thread.sleep(period.toMillis()); // the first evaluations after the replay settle
        Map<String, Double> before = counters();
        double receivedBefore = alertmanager.map(AlertmanagerProcess::firingReceived).orElse(0.0);
        Thread.sleep(period.toMillis() * periods);
        Map<String, Double> after = counters();
        double received = alertmanager.map(AlertmanagerProcess::firingReceived).orElse(0.0) - receivedBefore;
        long firingAfter = awaitFiring(Duration.ZERO);

        Map<String, Double> delta = new TreeMap<>();
        after.forEach((k, v) -> delta.put(k, v - before.getOrDefault(k, 0.0)));
        delta.forEach((k, v) -> System.out.printf("  %s: %.0f%n", k, v));
        double ran = delta.entrySet().stream().filter(e -> e.getKey().endsWith("outcome=\"ran\"}")).mapToDouble(Map.Entry::getValue).sum();
        double accepted = delta.entrySet().stream().filter(e -> e.getKey().contains("delivery_alerts_total{outcome=\"accepted\"}"))
                .mapToDouble(Map.Entry::getValue).sum();
        System.out.printf("alerts over %d periods of %d s: %d firing (%d at the end), %.0f evaluations ran between the two"
                        + " replicas, %.0f alerts accepted by Alertmanager, %s%n", periods, period.toSeconds(), firing,
                firingAfter, ran, accepted,
                alertmanager.isPresent() ? String.format("%.0f firing alerts received by it (%.2f per evaluation)",
                        received, ran == 0 ? 0 : received / ran) : "no Alertmanager to count them");
        boolean oncePerPeriod = ran >= periods - 1 && ran <= periods + 1;
        boolean oncePerEvaluation = Math.abs(accepted - ran * firing) <= firing
                && (alertmanager.isEmpty() || Math.abs(received - accepted) <= firing);
        System.out.println(oncePerPeriod && oncePerEvaluation
                ? "alerts: one evaluation per period between the replicas, each firing alert posted once per evaluation"
                : "alerts: the replicas evaluated or posted MORE OFTEN than one instance would");
        return oncePerPeriod && oncePerEvaluation;
    }

    /** How many alerts fire, once at least one does or {@code wait} has passed. */
    private long awaitFiring(Duration wait) throws InterruptedException, SQLException {
        long deadline = System.nanoTime() + wait.toNanos();
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
             Statement st = c.createStatement()) {
            while (true) {
                try (ResultSet rs = st.executeQuery("SELECT count(*) FROM alert.episode WHERE state = 'firing'")) {
                    rs.next();
                    long n = rs.getLong(1);
                    if (n > 0 || System.nanoTime() >= deadline) {
                        return n;
                    }
                }
                Thread.sleep(1_000);
            }
        }
    }

    /** Each replica's evaluation and delivery counters, keyed "replica N name{labels}". */
    private Map<String, Double> counters() {
        Map<String, Double> out = new TreeMap<>();
        for (int i = 0; i < replicas.size(); i++) {
            for (String line : metrics(replicas.get(i)).split("\n")) {
                if (line.startsWith("gpumeter_alert_evaluations_total") || line.startsWith("gpumeter_alert_delivery_alerts_total")) {
                    int space = line.lastIndexOf(' ');
                    out.merge("replica " + (i + 1) + " " + line.substring(0, space), Double.parseDouble(line.substring(space + 1)),
                            Double::sum);
                }
            }
        }
        return out;
    }

    private String metrics(Suite suite) {
        try {
            return http.send(HttpRequest.newBuilder(suite.managementUrl(Service.ALERT).resolve("/q/metrics"))
                    .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString()).body();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
