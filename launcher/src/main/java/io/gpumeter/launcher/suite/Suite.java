package io.gpumeter.launcher.suite;

import io.gpumeter.common.security.Tokens;
import io.gpumeter.launcher.db.DatabaseConnection;
import io.gpumeter.launcher.db.EmbeddedDatabase;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The whole suite on one machine: PostgreSQL (embedded, or one given) and the five services as child JVMs (and the
 * console after them, when asked for), each waited for until {@code /q/health/ready} answers 200 on its management port. Stopping (explicitly, or by the shutdown hook on Ctrl-C or
 * SIGTERM) terminates every child and then PostgreSQL, so no process outlives the launcher.
 */
public final class Suite implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Suite.class);

    private final SuiteConfig config;
    private final ReadinessProbe probe;
    private final RunRecords records;
    private final Map<Service, ServiceProcess> running = new ConcurrentHashMap<>();
    private volatile boolean stopping;
    private EmbeddedDatabase embedded;
    /** The embedded server's port while it is stopped by {@link #stopDatabase()}. */
    private int embeddedPort;
    private DatabaseConnection database;
    private Thread hook;
    private LocalKeys keys;
    /** The console's one-time sign-in code, minted when the console starts; null before. */
    private volatile String consoleSigninCode;

    Suite(SuiteConfig config) {
        this.config = config;
        this.probe = new ReadinessProbe(ListenAddress.urlHost(config.listenAddress()));
        this.records = new RunRecords(config.stateDirectory().resolve("run"));
    }

    public static SuiteBuilder builder(Path repoRoot) {
        return new SuiteBuilder(repoRoot);
    }

    public SuiteConfig config() {
        return config;
    }

    /** Starts PostgreSQL and every configured service, and returns once all are ready. */
    public synchronized Suite start() {
        stopping = false;
        for (Service s : config.services()) {
            requireJar(s);
            records.clearStale(s);
            Ports.requireFree(s, port(s));
            Ports.requireFree(s, managementPort(s));
        }
        registerHook();
        try {
            openDatabase();
            List<ServiceProcess> started = new ArrayList<>();
            for (Service s : config.services()) {
                started.add(spawn(s));
            }
            probe.awaitReady(started, config.readyTimeout(), () -> stopping);
            LOG.info("all {} services ready", started.size());
            return this;
        } catch (RuntimeException e) {
            stop();
            throw e;
        }
    }

    /** Starts one service (again), e.g. after {@link #stop(Service)}, and waits until it is ready. */
    public synchronized void start(Service service) {
        if (running.containsKey(service)) {
            throw new SuiteException(service.module() + " is already running");
        }
        if (database == null) {
            throw new SuiteException("the suite is not started");
        }
        requireJar(service);
        records.clearStale(service);
        Ports.requireFree(service, port(service));
        Ports.requireFree(service, managementPort(service));
        probe.awaitReady(List.of(spawn(service)), config.readyTimeout(), () -> stopping);
    }

    /** Stops one service (SIGTERM, then SIGKILL after the grace period); the others keep running. */
    public synchronized void stop(Service service) {
        ServiceProcess process = running.remove(service);
        if (process != null) {
            process.terminate();
            process.awaitExitOrKill(config.stopGrace());
            records.remove(service);
            LOG.info("{} stopped", service.module());
        }
    }

    /** Stops every service, then the embedded PostgreSQL; safe to call twice. */
    public synchronized void stop() {
        List<ServiceProcess> processes = new ArrayList<>(running.values());
        if (!processes.isEmpty() || embedded != null) {
            LOG.info("stopping {} service(s){}", processes.size(), embedded != null ? " and PostgreSQL" : "");
        }
        processes.forEach(ServiceProcess::terminate);
        Instant deadline = Instant.now().plus(config.stopGrace());
        for (ServiceProcess p : processes) {
            p.awaitExitOrKill(Duration.between(Instant.now(), deadline));
            records.remove(p.service());
        }
        running.clear();
        if (embedded != null) {
            try {
                embedded.close();
            } catch (RuntimeException e) {
                LOG.warn("PostgreSQL did not stop cleanly: {}", e.getMessage());
            }
            embedded = null;
        }
        database = null;
        unregisterHook();
    }

    /**
     * Kills one service at once (SIGKILL, no shutdown hooks): a crash, for fault tests. {@link #start(Service)}
     * brings it back.
     */
    public synchronized void kill(Service service) {
        ServiceProcess process = running.remove(service);
        if (process != null) {
            process.kill();
            records.remove(service);
            LOG.info("{} killed", service.module());
        }
    }

    /** The process id of a running service. */
    public synchronized OptionalLong pid(Service service) {
        ServiceProcess p = running.get(service);
        return p != null && p.isAlive() ? OptionalLong.of(p.pid()) : OptionalLong.empty();
    }

    /**
     * Stops the embedded PostgreSQL (fast shutdown) and leaves the services running, as an outage of the database
     * would; {@link #startDatabase()} brings it back on the same data directory and port.
     */
    public synchronized void stopDatabase() {
        if (embedded == null) {
            throw new SuiteException(database == null ? "the suite is not started"
                    : "the suite runs no embedded PostgreSQL, or it is already stopped");
        }
        embeddedPort = embedded.port();
        embedded.close();
        embedded = null;
        LOG.info("PostgreSQL stopped; the services keep running");
    }

    /** Starts the embedded PostgreSQL again after {@link #stopDatabase()}, on the port the services know. */
    public synchronized void startDatabase() {
        if (embedded != null || database == null || config.externalDatabase() != null) {
            throw new SuiteException("the embedded PostgreSQL is running already or was never started");
        }
        try {
            embedded = EmbeddedDatabase.start(config.dataDirectory(), embeddedPort, false, databasePassword());
        } catch (IOException | IllegalStateException e) {
            throw new SuiteException("could not restart the embedded PostgreSQL on " + config.dataDirectory() + ": "
                    + e.getMessage(), e);
        }
    }

    /** On Ctrl-C the start-up may hold the lock while it waits: signal the children first, then stop in order. */
    private void stopFromHook() {
        stopping = true;
        running.values().forEach(ServiceProcess::terminate);
        stop();
    }

    @Override
    public void close() {
        stop();
    }

    public boolean isRunning(Service service) {
        ServiceProcess p = running.get(service);
        return p != null && p.isAlive();
    }

    public int port(Service service) {
        return config.ports().get(service);
    }

    /** e.g. {@code http://127.0.0.1:8082}: the address the services listen on (loopback for a wildcard). */
    public URI url(Service service) {
        return URI.create("http://" + ListenAddress.urlHost(config.listenAddress()) + ":" + port(service));
    }

    /** Where {@code /q/health} and {@code /q/metrics} of a service are served; the API port serves neither. */
    public int managementPort(Service service) {
        return config.managementPorts().get(service);
    }

    /** e.g. {@code http://localhost:9082} */
    public URI managementUrl(Service service) {
        return URI.create("http://localhost:" + managementPort(service));
    }

    public Path logFile(Service service) {
        return config.logDirectory().resolve(service.id() + ".log");
    }

    /** The PostgreSQL the services use; empty before start. */
    public synchronized Optional<DatabaseConnection> database() {
        return Optional.ofNullable(database);
    }

    /** The embedded PostgreSQL, when the suite runs one. */
    public synchronized Optional<EmbeddedDatabase> embeddedDatabase() {
        return Optional.ofNullable(embedded);
    }

    private void openDatabase() {
        if (config.externalDatabase() != null) {
            database = config.externalDatabase();
            return;
        }
        try {
            embedded = EmbeddedDatabase.start(config.dataDirectory(), config.databasePort(), config.freshDatabase(),
                    databasePassword());
        } catch (IOException | IllegalStateException e) {
            throw new SuiteException("could not start the embedded PostgreSQL on " + config.dataDirectory() + ": "
                    + e.getMessage(), e);
        }
        database = embedded.connection();
    }

    private ServiceProcess spawn(Service service) {
        Path jar = service.jar(config.repoRoot());
        try {
            ServiceProcess process = ServiceProcess.spawn(service, jar, config.repoRoot(), port(service),
                    managementPort(service), config.jvmOptions(), environment(service), logFile(service));
            running.put(service, process);
            records.write(service, process.pid(), jar);
            LOG.info("{} starting on port {}, management port {} (pid {}, log {})", service.module(), port(service),
                    managementPort(service), process.pid(), logFile(service));
            return process;
        } catch (IOException e) {
            throw new SuiteException("could not start " + service.module() + ": " + e.getMessage(), e);
        }
    }

    /**
     * A token of the local key pair for {@code groups} (e.g. {@code admin}, {@code tenant:acme}); the services
     * of this suite accept it.
     */
    public synchronized String token(String subject, List<String> groups, Duration ttl) {
        return keys().token(subject, groups, ttl);
    }

    /**
     * How long the services' own tokens live: the longest the services accept, so a local run keeps working for a
     * month; a run restarted later mints new ones.
     */
    static final Duration SERVICE_TOKEN_TTL = Tokens.MAX_LIFETIME;

    /** A token for {@code service} to present to the services it calls, addressed to them; empty for the ledger. */
    public synchronized Optional<String> serviceToken(Service service) {
        List<String> audience = service.calls().stream().map(Service::id).toList();
        return audience.isEmpty() ? Optional.empty()
                : Optional.of(keys().token(service.id(), List.of("service"), audience, SERVICE_TOKEN_TTL));
    }

    /** An admin token valid for a day, for the operator of a local run and for tests. */
    public String adminToken() {
        return token("local-admin", List.of("admin"), Duration.ofDays(1));
    }

    /**
     * The console's one-time sign-in link for the admin, e.g. {@code http://127.0.0.1:8086/signin?code=…}: it signs in
     * once, with an admin token of a day; empty unless the console was started.
     */
    public Optional<URI> consoleSigninUrl() {
        String code = consoleSigninCode;
        return code == null || !config.services().contains(Service.CONSOLE) ? Optional.empty()
                : Optional.of(URI.create(url(Service.CONSOLE) + "/signin?code=" + code));
    }

    /** The bearer token Alertmanager sends to alert-service's webhook; generated once, kept with the keys. */
    public String webhookToken() {
        return LocalSecrets.in(config.stateDirectory()).get(LocalSecrets.WEBHOOK_TOKEN);
    }

    /** The embedded PostgreSQL's superuser password; generated once, kept with the keys, never on a command line. */
    private String databasePassword() {
        return LocalSecrets.in(config.stateDirectory()).get(LocalSecrets.DATABASE_PASSWORD);
    }

    private synchronized LocalKeys keys() {
        if (keys == null) {
            keys = LocalKeys.in(config.stateDirectory());
        }
        return keys;
    }

    /**
     * The variables every service reads: its address and port, the database, where the other services are, the key
     * that verifies tokens and the service's own token; alert-service also the webhook token. Secrets go only here,
     * never on a command line, where any user's {@code ps} would show them.
     */
    Map<String, String> environment(Service service) {
        if (service == Service.CONSOLE) {
            return consoleEnvironment();
        }
        Map<String, String> env = new HashMap<>();
        env.put("QUARKUS_HTTP_HOST", config.listenAddress());
        // health and metrics bind where the API does: nothing of a local run listens beyond what --listen says
        env.put("QUARKUS_MANAGEMENT_HOST", config.listenAddress());
        env.put("MP_JWT_VERIFY_PUBLICKEY", keys().publicKeyPem());
        serviceToken(service).ifPresent(t -> env.put("GPUMETER_AUTH_SERVICE_TOKEN", t));
        env.put("QUARKUS_HTTP_PORT", Integer.toString(port(service)));
        env.put("QUARKUS_MANAGEMENT_PORT", Integer.toString(managementPort(service)));
        env.put("QUARKUS_DATASOURCE_REACTIVE_URL", database.reactiveUrl());
        env.put("QUARKUS_DATASOURCE_JDBC_URL", database.jdbcUrl());
        env.put("QUARKUS_DATASOURCE_USERNAME", database.user());
        env.put("QUARKUS_DATASOURCE_PASSWORD", database.password());
        for (Service target : List.of(Service.LEDGER, Service.SLO, Service.BILLING, Service.ALERT)) {
            env.put("QUARKUS_REST_CLIENT_" + target.name() + "_URL", url(target).toString());
        }
        if (service == Service.ALERT) {
            env.put("GPUMETER_ALERT_WEBHOOK_TOKEN", webhookToken());
        }
        env.putAll(config.env().getOrDefault(service, Map.of()));
        return env;
    }

    /**
     * The console's: its address and port, where the five services are, and a fresh one-time sign-in code with the
     * admin token it signs in with. No database login, no key and no service token: it owns no data, and calls the
     * services with each user's own token.
     */
    private Map<String, String> consoleEnvironment() {
        Map<String, String> env = new HashMap<>();
        env.put("QUARKUS_HTTP_HOST", config.listenAddress());
        env.put("QUARKUS_MANAGEMENT_HOST", config.listenAddress());
        env.put("QUARKUS_HTTP_PORT", Integer.toString(port(Service.CONSOLE)));
        env.put("QUARKUS_MANAGEMENT_PORT", Integer.toString(managementPort(Service.CONSOLE)));
        for (Service target : Service.apis()) {
            env.put("GPUMETER_CONSOLE_" + target.name() + "_URL", url(target).toString());
        }
        byte[] random = new byte[24];
        new SecureRandom().nextBytes(random);
        String code = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
        env.put("GPUMETER_CONSOLE_SIGNIN_CODE", code);
        env.put("GPUMETER_CONSOLE_SIGNIN_TOKEN", adminToken());
        env.putAll(config.env().getOrDefault(Service.CONSOLE, Map.of()));
        consoleSigninCode = env.get("GPUMETER_CONSOLE_SIGNIN_CODE");
        return env;
    }

    private void requireJar(Service service) {
        Path jar = service.jar(config.repoRoot());
        if (!Files.isRegularFile(jar)) {
            throw new SuiteException(jar + " is missing: build the services first "
                    + "(./gpumeter up --build, or mvn -DskipTests package)");
        }
    }

    private void registerHook() {
        if (config.shutdownHook() && hook == null) {
            hook = new Thread(this::stopFromHook, "gpumeter-suite-stop");
            Runtime.getRuntime().addShutdownHook(hook);
        }
    }

    private void unregisterHook() {
        if (hook != null && Thread.currentThread() != hook) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // the JVM is already shutting down: the hook runs, and stop() is idempotent
            }
        }
        hook = null;
    }
}
