package io.gpumeter.launcher.cli;

import io.gpumeter.launcher.db.DatabaseConnection;
import io.gpumeter.launcher.kube.SimulatedApiServer;
import io.gpumeter.launcher.suite.LocalSecrets;
import io.gpumeter.launcher.suite.Service;
import io.gpumeter.launcher.suite.Suite;

import java.io.PrintStream;

/** What {@code up} prints once the suite is ready: where everything is, and the tokens to call it with. */
final class UpReport {

    private UpReport() {
    }

    static void printUrls(Suite suite, PrintStream out, SimulatedApiServer api) {
        out.println();
        out.println("gpumeter is up:");
        for (Service s : Service.apis()) {
            out.printf("  %-10s %-24s swagger: %s/q/swagger-ui  health, metrics: %s/q/health, /q/metrics%n",
                    s.id(), suite.url(s), suite.url(s), suite.managementUrl(s));
        }
        if (suite.isRunning(Service.CONSOLE)) {
            out.printf("  %-10s %-24s health, metrics: %s/q/health, /q/metrics%n", Service.CONSOLE.id(),
                    suite.url(Service.CONSOLE), suite.managementUrl(Service.CONSOLE));
        }
        DatabaseConnection db = suite.database().orElseThrow();
        out.printf("  %-10s %s%n", "postgres", db.jdbcUrl());
        suite.embeddedDatabase().ifPresent(e -> {
            out.printf("  %-10s %s%n", "data", e.dataDirectory());
            out.printf("  %-10s user %s, password in %s%n", "login", e.connection().user(),
                    LocalSecrets.in(suite.config().stateDirectory()).file(LocalSecrets.DATABASE_PASSWORD));
        });
        out.printf("  %-10s %s%n", "logs", suite.config().logDirectory());
        if (api != null) {
            out.printf("  %-10s %s (simulated; kubectl --server %s get pods -A)%n", "k8s api", api.url(), api.url());
        }
        out.println();
        out.println("admin token: " + suite.adminToken());
        out.println("  (export TOKEN=<that token>; more with ./gpumeter token --groups reader|operator|tenant:<name>)");
        suite.consoleSigninUrl().ifPresent(link -> {
            out.println("console: " + link);
            out.println("  (signs the admin in once; anyone else: ./gpumeter token --groups tenant:<name> --console prints a sign-in link)");
        });
        out.println("webhook token: " + suite.webhookToken());
        out.println("  (Alertmanager's bearer token for " + suite.url(Service.ALERT) + "/api/v1/alertmanager/webhook; kept in "
                + suite.config().stateDirectory().resolve("keys") + ")");
    }
}
