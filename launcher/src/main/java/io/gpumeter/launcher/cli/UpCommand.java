package io.gpumeter.launcher.cli;

import io.gpumeter.launcher.db.DatabaseConnection;
import io.gpumeter.launcher.db.EmbeddedDatabase;
import io.gpumeter.launcher.demo.Demo;
import io.gpumeter.launcher.kube.SimulatedApiServer;
import io.gpumeter.launcher.simulator.FleetSimulator;
import io.gpumeter.launcher.suite.LocalSecrets;
import io.gpumeter.launcher.suite.Service;
import io.gpumeter.launcher.suite.Suite;
import io.gpumeter.launcher.suite.SuiteBuilder;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

/** {@code up}: PostgreSQL and the five services, until Ctrl-C; with {@code --demo}, a simulated cluster too. */
public final class UpCommand {

    private static final String USAGE = """
            gpumeter up [--demo] [--fresh] [--db-url URL --db-user USER --db-password PASSWORD] [options]
              Starts PostgreSQL and the five services, prints their URLs, and runs until Ctrl-C.
              --demo              also start a simulated Kubernetes API server, replay a fleet history into it,
                                  and print a Q1 answer and last month's CSV report (uses its own database,
                                  .gpumeter/demo/pgdata, wiped at every demo start)
              --fresh             wipe the embedded database first
              --db-url URL        use this PostgreSQL (jdbc:postgresql://host:port/db) instead of the embedded
                                  one; also GPUMETER_DB_URL, GPUMETER_DB_USER, GPUMETER_DB_PASSWORD
              --data-dir DIR      embedded database directory (default .gpumeter/pgdata)
              --db-port N         embedded database port (default: any free port)
              --base-port N       services on N+1..N+5 (default 8080: 8081..8085), health and metrics 1000 above
              --listen ADDRESS    the address the services bind to (default 127.0.0.1: this machine only;
                                  0.0.0.0 for every interface)
              --cluster NAME      cluster name the collector stamps on its facts
              --seed N, --end T   the demo's fleet history (see simulate)
              --log-dir DIR       service logs (default .gpumeter/logs)
              --timeout SECONDS   how long to wait for the services to become ready (default 120)""";

    private static final Set<String> FLAGS = Set.of("demo", "fresh", "build");
    private static final Set<String> OPTIONS = Set.of("db-url", "db-user", "db-password", "data-dir", "db-port",
            "base-port", "cluster", "seed", "end", "log-dir", "timeout", "root", "listen");

    private UpCommand() {
    }

    public static String usage() {
        return USAGE;
    }

    static Arguments parse(List<String> args) {
        return Arguments.parse(args, FLAGS, OPTIONS);
    }

    public static int run(List<String> args, Map<String, String> env, PrintStream out) throws Exception {
        Arguments a = parse(args);
        Path root = a.path("root").orElse(Path.of("")).toAbsolutePath().normalize();
        if (!Files.isRegularFile(root.resolve("pom.xml")) || !Files.isDirectory(root.resolve("ledger-service"))) {
            throw new UsageException(root + " is not the gpumeter repository: run from its root, or pass --root");
        }
        boolean demo = a.flag("demo");
        SuiteBuilder builder = suiteBuilder(a, root, env);

        Demo demoRun = null;
        SimulatedApiServer api = null;
        if (demo) {
            FleetSimulator simulator = new FleetSimulator(a.longValue("seed", FleetSimulator.DEFAULT_SEED),
                    a.instant("end").orElse(FleetSimulator.defaultEnd(Clock.systemUTC())));
            api = SimulatedApiServer.start();
            SimulatedApiServer server = api;
            Runtime.getRuntime().addShutdownHook(new Thread(server::close, "gpumeter-api-server-stop"));
            demoRun = new Demo(simulator, out);
            demoRun.configure(builder, api);
        }

        out.println("Starting PostgreSQL and " + Service.values().length + " services (logs in "
                + builder.config().logDirectory() + ")...");
        Suite suite = builder.build().start();
        printUrls(suite, out, demo ? api : null);
        if (demoRun != null) {
            demoRun.run(suite, api);
        }
        out.println();
        out.println("Press Ctrl-C to stop.");
        new CountDownLatch(1).await();
        return 0;
    }

    /** The suite as the options describe it, before anything starts; the demo adds its simulated cluster. */
    static SuiteBuilder suiteBuilder(Arguments a, Path root, Map<String, String> env) {
        boolean demo = a.flag("demo");
        SuiteBuilder builder = Suite.builder(root)
                .basePort(a.intValue("base-port", 8080))
                .readyTimeout(Duration.ofSeconds(a.longValue("timeout", 120)));
        try {
            a.value("listen").ifPresent(builder::listen);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--listen: " + e.getMessage());
        }
        a.path("log-dir").ifPresent(builder::logDirectory);
        a.value("cluster").ifPresent(c -> builder.env(Service.COLLECTOR, "GPUMETER_COLLECTOR_CLUSTER", c));
        // A local run has no Alertmanager unless one is named; alerts are still evaluated and listed by alert-service.
        builder.env(Service.ALERT, "GPUMETER_ALERT_ALERTMANAGER_ENABLED",
                env.getOrDefault("QUARKUS_REST_CLIENT_ALERTMANAGER_URL", "").isEmpty() ? "false" : "true");

        Optional<DatabaseConnection> external = externalDatabase(a, env);
        Path dataDirectory = a.path("data-dir").orElse(demo
                ? root.resolve(".gpumeter").resolve("demo").resolve("pgdata")
                : EmbeddedDatabase.defaultDataDirectory(root));
        if (external.isPresent()) {
            builder.externalDatabase(external.get());
        } else {
            builder.embeddedDatabase(dataDirectory).databasePort(a.intValue("db-port", 0))
                    .freshDatabase(a.flag("fresh") || demo);
        }
        return builder;
    }

    private static Optional<DatabaseConnection> externalDatabase(Arguments a, Map<String, String> env) {
        Optional<String> url = a.value("db-url").or(() -> Optional.ofNullable(env.get("GPUMETER_DB_URL")))
                .filter(u -> !u.isBlank());
        return url.map(u -> new DatabaseConnection(u,
                a.value("db-user").orElse(env.getOrDefault("GPUMETER_DB_USER", "postgres")),
                a.value("db-password").orElse(env.getOrDefault("GPUMETER_DB_PASSWORD", ""))));
    }

    private static void printUrls(Suite suite, PrintStream out, SimulatedApiServer api) {
        out.println();
        out.println("gpumeter is up:");
        for (Service s : Service.values()) {
            out.printf("  %-10s %-24s swagger: %s/q/swagger-ui  health, metrics: %s/q/health, /q/metrics%n",
                    s.id(), suite.url(s), suite.url(s), suite.managementUrl(s));
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
        out.println("webhook token: " + suite.webhookToken());
        out.println("  (Alertmanager's bearer token for " + suite.url(Service.ALERT) + "/api/v1/alertmanager/webhook; kept in "
                + suite.config().stateDirectory().resolve("keys") + ")");
    }
}
