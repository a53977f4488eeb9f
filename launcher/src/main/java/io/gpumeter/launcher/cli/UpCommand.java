package io.gpumeter.launcher.cli;

import io.gpumeter.launcher.db.DatabaseConnection;
import io.gpumeter.launcher.db.EmbeddedDatabase;
import io.gpumeter.launcher.demo.Demo;
import io.gpumeter.launcher.kube.SimulatedApiServer;
import io.gpumeter.launcher.simulator.FleetSimulator;
import io.gpumeter.launcher.suite.Service;
import io.gpumeter.launcher.suite.JavaRuntime;
import io.gpumeter.launcher.suite.Suite;
import io.gpumeter.launcher.suite.SuiteException;
import io.gpumeter.launcher.suite.SuiteBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/**
 * {@code up}: PostgreSQL, the five services and the console, until Ctrl-C; with {@code --demo}, a simulated cluster
 * too.
 */
@Command(name = "up", sortOptions = false,
        description = {"Starts PostgreSQL, the five services and the web console, prints their URLs, an admin token "
                + "and the console's one-time sign-in link, and runs until Ctrl-C or SIGTERM, which stop every service, "
                + "then PostgreSQL.",
                "Without --db-url (or GPUMETER_DB_URL) it runs an embedded PostgreSQL whose data stays in "
                        + ".gpumeter/pgdata between runs."},
        footerHeading = "%nEnvironment:%n",
        footer = {
                "  GPUMETER_DB_URL       the external PostgreSQL, when --db-url is not given",
                "  GPUMETER_DB_USER      its user, when --db-user is not given",
                "  GPUMETER_DB_PASSWORD  its password, when --db-password-file is not given. A password is never",
                "                        taken from the command line, where ps shows it to every user of the machine.",
                "  QUARKUS_REST_CLIENT_ALERTMANAGER_URL",
                "                        an Alertmanager for alert-service to send to (default: none; alerts are",
                "                        still evaluated and listed)"})
public final class UpCommand implements Callable<Integer> {

    private final Map<String, String> env;
    private final PrintStream out;

    @Spec
    CommandSpec spec;

    // Paths start a description line of their own: the help's line breaking would split them at their dot.
    @Option(names = "--demo", description = {"Also start a simulated Kubernetes API server, replay a fleet history "
            + "into it, and print a Q1 answer and last month's CSV report.",
            "Uses its own database, .gpumeter/demo/pgdata, wiped at every demo start."})
    boolean demo;

    @Option(names = "--fresh", description = "Wipe the embedded database first.")
    boolean fresh;

    @Option(names = "--root", paramLabel = "DIR", description = "The gpumeter repository whose built services run "
            + "and under which .gpumeter/ is kept (default: the current directory; ./gpumeter runs from the "
            + "repository root).")
    Path root;

    @Option(names = "--listen", paramLabel = "ADDRESS", description = "The address the services and the console bind to "
            + "(default 127.0.0.1: this machine only; 0.0.0.0 for every interface).")
    String listen;

    @Option(names = "--base-port", paramLabel = "N", converter = Converters.BasePort.class, defaultValue = "8080",
            description = "The services on N+1 (collector) to N+5 (billing), the console on N+6 and the MCP server "
                    + "on N+7, their health and metrics 1000 above (default ${DEFAULT-VALUE}: 8081-8087 and 9081-9087).")
    int basePort;

    @Option(names = "--db-url", paramLabel = "URL", description = "Use this PostgreSQL "
            + "(jdbc:postgresql://host:port/db) instead of the embedded one (default: GPUMETER_DB_URL).")
    String dbUrl;

    @Option(names = "--db-user", paramLabel = "USER", description = "The user for --db-url "
            + "(default: GPUMETER_DB_USER, else postgres).")
    String dbUser;

    @Option(names = "--db-password-file", paramLabel = "FILE", description = "Read the password for --db-url from "
            + "FILE, its first line (default: GPUMETER_DB_PASSWORD, else none).")
    Path dbPasswordFile;

    @Option(names = "--data-dir", paramLabel = "DIR", description = {"The embedded database's directory",
            "(default .gpumeter/pgdata, or .gpumeter/demo/pgdata with --demo)."})
    Path dataDir;

    @Option(names = "--db-port", paramLabel = "N", converter = Converters.Port.class, defaultValue = "0",
            description = "The embedded database's port (default: any free port).")
    int dbPort;

    @Option(names = "--cluster", paramLabel = "NAME", description = "The cluster name the collector stamps on its "
            + "facts (default: the collector's own).")
    String cluster;

    @Option(names = "--seed", paramLabel = "N", converter = Converters.WholeNumber.class,
            defaultValue = "" + FleetSimulator.DEFAULT_SEED,
            description = "With --demo: the fleet history's random seed (default ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--end", paramLabel = "T", converter = Converters.Rfc3339.class, description = "With --demo: "
            + "the history's last instant, RFC 3339 such as 2026-11-30T12:00:00Z (default: now, to the minute).")
    Instant end;

    @Option(names = "--log-dir", paramLabel = "DIR", description = "Where the service logs go "
            + "(default .gpumeter/logs).")
    Path logDir;

    @Option(names = "--timeout", paramLabel = "SECONDS", converter = Converters.Seconds.class,
            defaultValue = "120", description = "How long to wait for the services to become ready "
            + "(default ${DEFAULT-VALUE}).")
    long timeout;

    @Option(names = "--java", paramLabel = "DIR", description = {"The JDK that runs the services (default: the one "
            + "./gpumeter runs on, JAVA_HOME's when set).", "On Java 25 and later each service records an "
            + "ahead-of-time class cache at its first start on a build and starts from it afterwards."})
    Path java;

    @Option(names = "--no-aot-cache", description = "Neither record nor use the services' ahead-of-time class caches.")
    boolean noAotCache;

    @Mixin
    StandardOptions standard;

    public UpCommand(Map<String, String> env, PrintStream out) {
        this.env = env;
        this.out = out;
    }

    // Refused as it is read, so that the value is never echoed and nothing starts; null is picocli resetting it.
    @Option(names = "--db-password", arity = "0..1", hidden = true, paramLabel = "PASSWORD")
    void refusePasswordOnTheCommandLine(String given) {
        if (given == null) {
            return;
        }
        throw new ParameterException(spec.commandLine(), "--db-password is not accepted: a password on the command "
                + "line is visible to every user of the machine (ps). Set " + ExternalDatabase.PASSWORD_ENV
                + " or pass --db-password-file FILE.");
    }

    @Override
    public Integer call() throws Exception {
        Path repository = root();
        if (!Files.isRegularFile(repository.resolve("pom.xml"))
                || !Files.isDirectory(repository.resolve("ledger-service"))) {
            throw new UsageException(repository + " is not the gpumeter repository: run from its root, or pass --root");
        }
        SuiteBuilder builder = suiteBuilder();

        Demo demoRun = null;
        SimulatedApiServer api = null;
        if (demo) {
            FleetSimulator simulator = new FleetSimulator(seed,
                    end != null ? end : FleetSimulator.defaultEnd(Clock.systemUTC()));
            api = SimulatedApiServer.start();
            SimulatedApiServer server = api;
            Runtime.getRuntime().addShutdownHook(new Thread(server::close, "gpumeter-api-server-stop"));
            demoRun = new Demo(simulator, out);
            demoRun.configure(builder, api);
        }

        out.println("Starting PostgreSQL, the " + Service.apis().size() + " services, the console and the MCP server (logs in "
                + builder.config().logDirectory() + ")...");
        Suite suite = builder.build().start();
        UpReport.printUrls(suite, out, demo ? api : null);
        if (demoRun != null) {
            demoRun.run(suite, api);
        }
        out.println();
        out.println("Press Ctrl-C to stop.");
        new CountDownLatch(1).await();
        return 0;
    }

    Path root() {
        return (root != null ? root : Path.of("")).toAbsolutePath().normalize();
    }

    /** The suite as the options describe it, before anything starts; the demo adds its simulated cluster. */
    SuiteBuilder suiteBuilder() {
        Path repository = root();
        SuiteBuilder builder = Suite.builder(repository)
                .withConsole()
                .withMcp()
                .basePort(basePort)
                .readyTimeout(Duration.ofSeconds(timeout))
                .aotCache(!noAotCache);
        if (java != null) {
            try {
                builder.java(JavaRuntime.at(java.toAbsolutePath()));
            } catch (SuiteException e) {
                throw new UsageException("--java: " + e.getMessage());
            }
        }
        if (listen != null) {
            try {
                builder.listen(listen);
            } catch (IllegalArgumentException e) {
                throw new UsageException("--listen: " + e.getMessage());
            }
        }
        if (logDir != null) {
            builder.logDirectory(logDir);
        }
        if (cluster != null) {
            builder.env(Service.COLLECTOR, "GPUMETER_COLLECTOR_CLUSTER", cluster);
        }
        // A local run has no Alertmanager unless one is named; alerts are still evaluated and listed by alert-service.
        builder.env(Service.ALERT, "GPUMETER_ALERT_ALERTMANAGER_ENABLED",
                env.getOrDefault("QUARKUS_REST_CLIENT_ALERTMANAGER_URL", "").isEmpty() ? "false" : "true");

        Optional<DatabaseConnection> external = externalDatabase();
        if (external.isPresent()) {
            builder.externalDatabase(external.get());
        } else {
            Path dataDirectory = dataDir != null ? dataDir : demo
                    ? repository.resolve(".gpumeter").resolve("demo").resolve("pgdata")
                    : EmbeddedDatabase.defaultDataDirectory(repository);
            builder.embeddedDatabase(dataDirectory).databasePort(dbPort).freshDatabase(fresh || demo);
        }
        return builder;
    }

    Optional<DatabaseConnection> externalDatabase() {
        return ExternalDatabase.named(dbUrl, dbUser, dbPasswordFile, env);
    }
}
