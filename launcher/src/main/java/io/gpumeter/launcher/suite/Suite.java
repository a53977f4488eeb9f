package io.gpumeter.launcher.suite;

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
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The whole suite on one machine: PostgreSQL (embedded, or one given) and the five services as child JVMs (and the
 * console after them, when asked for), each waited for until {@code /q/health/ready} answers 200 on its management
 * port. Stopping (explicitly, or by the shutdown hook on Ctrl-C or SIGTERM) terminates every child and then
 * PostgreSQL, so no process outlives the launcher. Tests stop, kill and restart single parts through {@link #faults()}.
 */
public final class Suite implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Suite.class);

    private final SuiteConfig config;
    private final ReadinessProbe probe;
    private final RunRecords records;
    private final Map<Service, ServiceProcess> running = new ConcurrentHashMap<>();
    private volatile boolean stopping;
    private Thread hook;
    private final ServiceEnvironment environment;
    private final SuiteDatabase db;
    private final SuiteFaults faults = new SuiteFaults(this);
    private final AotCache aot;
    private final Map<Service, AotCache.Use> aotUse = new ConcurrentHashMap<>();
    /** The console's one-time sign-in code, minted when the console starts; null before. */
    private volatile String consoleSigninCode;

    Suite(SuiteConfig config) {
        this.config = config;
        this.probe = new ReadinessProbe(ListenAddress.urlHost(config.listenAddress()));
        this.records = new RunRecords(config.stateDirectory().resolve("run"));
        this.environment = new ServiceEnvironment(config);
        this.db = new SuiteDatabase(config, environment);
        this.aot = new AotCache(config.stateDirectory().resolve("aot"), config.java(), config.jvmOptions(), config.aotCache());
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
        List<ServiceProcess> processes = new ArrayList<>(running.values());
        boolean embedded = db.embedded().isPresent();
        if (!processes.isEmpty() || embedded) {
            LOG.info("stopping {} service(s){}", processes.size(), embedded ? " and PostgreSQL" : "");
        }
        processes.forEach(ServiceProcess::terminate);
        // a service recording its class cache writes it on the way out: give it the time that takes
        boolean recording = processes.stream().anyMatch(p -> aotUse.get(p.service()) == AotCache.Use.RECORD);
        Duration grace = recording && AotCache.WRITE_GRACE.compareTo(config.stopGrace()) > 0
                ? AotCache.WRITE_GRACE : config.stopGrace();
        if (recording) {
            LOG.info("writing the services' ahead-of-time class caches (up to {} s)", grace.toSeconds());
        }
        Instant deadline = Instant.now().plus(grace);
        for (ServiceProcess p : processes) {
            p.awaitExitOrKill(Duration.between(Instant.now(), deadline));
            records.remove(p.service());
        }
        running.clear();
        db.close();
        unregisterHook();
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

    /** How long the service took from its start to ready, when it is running and has been ready. */
    public Optional<Duration> readyAfter(Service service) {
        ServiceProcess p = running.get(service);
        return p == null ? Optional.empty() : Optional.ofNullable(p.readyAfter());
    }

    /** What the service's current start did with its ahead-of-time class cache. */
    public String aotCache(Service service) {
        return switch (aotUse.getOrDefault(service, AotCache.Use.NONE)) {
            case NONE -> "none";
            case RECORD -> "recording";
            case USE -> "used";
        };
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
        return config.logDirectory().resolve(service.id() + ".log");
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
        ServiceProcess p = running.get(service);
        return p != null && p.isAlive() ? OptionalLong.of(p.pid()) : OptionalLong.empty();
    }

    /** Checks that a service can start: its jar is built, no stale record names it, its ports are free. */
    void prepare(Service service) {
        requireJar(service);
        records.clearStale(service);
        Ports.requireFree(service, port(service));
        Ports.requireFree(service, managementPort(service));
    }

    /** Waits until the processes answer ready, or fails when the start-up is interrupted or times out. */
    void awaitReady(List<ServiceProcess> processes) {
        probe.awaitReady(processes, config.readyTimeout(), () -> stopping);
    }

    /** The running process of a service, left in the suite; null when it is not running. */
    ServiceProcess process(Service service) {
        return running.get(service);
    }

    /** Takes a service's process out of the suite, which no longer stops it; null when it is not running. */
    ServiceProcess release(Service service) {
        return running.remove(service);
    }

    /** Forgets the run record of a service that has exited. */
    void forget(Service service) {
        records.remove(service);
    }

    /** The suite's PostgreSQL, which faults stop and restart. */
    SuiteDatabase db() {
        return db;
    }

    ServiceProcess spawn(Service service) {
        Path jar = service.jar(config.repoRoot());
        try {
            AotCache.Use use = aot.use(service, jar);
            List<String> options = new ArrayList<>(config.jvmOptions());
            options.addAll(aot.options(service, jar));
            ServiceProcess process = ServiceProcess.spawn(service, config.java().executable(), jar, config.repoRoot(),
                    port(service), managementPort(service), options, environment(service), logFile(service));
            aotUse.put(service, use);
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
