package io.gpumeter.launcher.suite;

import io.gpumeter.launcher.db.DatabaseConnection;
import io.gpumeter.launcher.db.EmbeddedDatabase;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.URI;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The whole suite on one machine: PostgreSQL (embedded, or one given) and the five services as child JVMs (and the
 * console after them, when asked for), each waited for until {@code /q/health/ready} answers 200 on its management
 * port. Stopping (explicitly, or by the shutdown hook on Ctrl-C or SIGTERM) terminates every child and then
 * PostgreSQL, so no process outlives the launcher. Tests stop, kill and restart single parts through {@link #faults()}.
 */
public final class Suite implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Suite.class);

    private final SuiteConfig config;
    private final ServiceProcesses processes;
    private volatile boolean stopping;
    private Thread hook;
    private final ServiceEnvironment environment;
    private final SuiteDatabase db;
    private final SuiteFaults faults = new SuiteFaults(this);
    /** The console's one-time sign-in code, minted when the console starts; null before. */
    private volatile String consoleSigninCode;

    Suite(SuiteConfig config) {
        this.config = config;
        this.environment = new ServiceEnvironment(config);
        this.db = new SuiteDatabase(config, environment);
        this.processes = new ServiceProcesses(config, this::environment);
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
            prepare(s);
        }
        registerHook();
        try {
            db.open();
            List<ServiceProcess> started = new ArrayList<>();
            for (Service s : config.services()) {
                started.add(spawn(s));
            }
            awaitReady(started);
            LOG.info("all {} services ready", started.size());
            return this;
        } catch (RuntimeException e) {
            stop();
            throw e;
        }
    }

    /** Stops every service, then the embedded PostgreSQL; safe to call twice. */
    public synchronized void stop() {
        int count = processes.count();
        boolean embedded = db.embedded().isPresent();
        if (count > 0 || embedded) {
            LOG.info("stopping {} service(s){}", count, embedded ? " and PostgreSQL" : "");
        }
        processes.stopAll();
        db.close();
        unregisterHook();
    }

    /** On Ctrl-C the start-up may hold the lock while it waits: signal the children first, then stop in order. */
    private void stopFromHook() {
        stopping = true;
        processes.terminateAll();
        stop();
    }

    @Override
    public void close() {
        stop();
    }

    /** How long the service took from its start to ready, when it is running and has been ready. */
    public Optional<Duration> readyAfter(Service service) {
        return processes.readyAfter(service);
    }

    /** What the service's current start did with its ahead-of-time class cache. */
    public String aotCache(Service service) {
        return switch (processes.aotUse(service)) {
            case NONE -> "none";
            case RECORD -> "recording";
            case USE -> "used";
        };
    }

    public boolean isRunning(Service service) {
        return processes.isRunning(service);
    }

    public int port(Service service) {
        return config.ports().get(service);
    }

    /** e.g. {@code http://127.0.0.1:8082}: the address the services listen on (loopback for a wildcard). */
    public URI url(Service service) {
        return ServiceEnvironment.url(config, service);
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
        return processes.logFile(service);
    }

    /** The PostgreSQL the services use; empty before start. */
    public synchronized Optional<DatabaseConnection> database() {
        return Optional.ofNullable(db.connection());
    }

    /** The embedded PostgreSQL, when the suite runs one. */
    public synchronized Optional<EmbeddedDatabase> embeddedDatabase() {
        return db.embedded();
    }

    /** Fault injection for tests: stopping, killing and restarting one service or the embedded PostgreSQL. */
    public SuiteFaults faults() {
        return faults;
    }

    /** The process id of a running service. */
    public synchronized OptionalLong pid(Service service) {
        return processes.pid(service);
    }

    /** Checks that a service can start: its jar is built, no stale record names it, its ports are free. */
    void prepare(Service service) {
        processes.prepare(service);
    }

    /** Waits until the processes answer ready, or fails when the start-up is interrupted or times out. */
    void awaitReady(List<ServiceProcess> processes) {
        this.processes.awaitReady(processes, () -> stopping);
    }

    /** The services' processes, which faults stop, kill and start one at a time. */
    ServiceProcesses processes() {
        return processes;
    }

    /** The suite's PostgreSQL, which faults stop and restart. */
    SuiteDatabase db() {
        return db;
    }

    ServiceProcess spawn(Service service) {
        return processes.spawn(service);
    }

    /**
     * A token of the local key pair for {@code groups} (e.g. {@code admin}, {@code tenant:acme}); the services
     * of this suite accept it.
     */
    public String token(String subject, List<String> groups, Duration ttl) {
        return environment.token(subject, groups, ttl);
    }

    /** A token for {@code service} to present to the services it calls, addressed to them; empty for the ledger. */
    public Optional<String> serviceToken(Service service) {
        return environment.serviceToken(service);
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
                : Optional.of(ConsoleLinks.oneTime(url(Service.CONSOLE), code));
    }

    /** The bearer token Alertmanager sends to alert-service's webhook; generated once, kept with the keys. */
    public String webhookToken() {
        return environment.webhookToken();
    }

    Map<String, String> environment(Service service) {
        if (service == Service.CONSOLE) {
            byte[] random = new byte[24];
            new SecureRandom().nextBytes(random);
            Map<String, String> env = environment.ofConsole(
                    Base64.getUrlEncoder().withoutPadding().encodeToString(random), adminToken());
            consoleSigninCode = env.get(ServiceEnvironment.CONSOLE_SIGNIN_CODE);
            return env;
        }
        if (service == Service.MCP) {
            return environment.ofMcp();
        }
        return environment.of(service, db.connection());
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
