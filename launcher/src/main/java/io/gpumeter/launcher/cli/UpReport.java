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

    /** How long the service took to become ready, and what it did with its ahead-of-time class cache. */
    static String readiness(Suite suite, Service s) {
        String ready = suite.readyAfter(s).map(d -> String.format("  ready in %.1f s", d.toMillis() / 1000.0)).orElse("");
        String cache = suite.aotCache(s);
        return ready + ("none".equals(cache) ? "" : " (class cache " + cache + ")");
    }

    static void printUrls(Suite suite, PrintStream out, SimulatedApiServer api) {
        out.println();
        out.println("gpumeter is up (Java " + suite.config().java().version() + "):");
        for (Service s : Service.apis()) {
            out.printf("  %-10s %-24s swagger: %s/q/swagger-ui  health, metrics: %s/q/health, /q/metrics%s%n",
                    s.id(), suite.url(s), suite.url(s), suite.managementUrl(s), readiness(suite, s));
        }
        if (suite.isRunning(Service.CONSOLE)) {
            out.printf("  %-10s %-24s health, metrics: %s/q/health, /q/metrics%n", Service.CONSOLE.id(),
                    suite.url(Service.CONSOLE), suite.managementUrl(Service.CONSOLE));
        }
        if (suite.isRunning(Service.MCP)) {
            out.printf("  %-10s %-24s health, metrics: %s/q/health, /q/metrics  (assistants: %s/mcp)%n", Service.MCP.id(),
                    suite.url(Service.MCP), suite.managementUrl(Service.MCP), suite.url(Service.MCP));
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
