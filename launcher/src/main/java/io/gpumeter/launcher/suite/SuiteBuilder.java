package io.gpumeter.launcher.suite;

import io.gpumeter.launcher.db.DatabaseConnection;

import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Configures a {@link Suite}: defaults are the local-run ones (API ports 8081–8085 and management ports 9081–9085 on
 * 127.0.0.1, embedded PostgreSQL in the repo), the five services without the console unless {@link #withConsole} or
 * {@link #services} asks for it (on 8086 and 9086).
 */
public final class SuiteBuilder {

    /** Loopback only: a local run is reachable from this machine alone unless {@link #listen} says otherwise. */
    public static final String DEFAULT_LISTEN_ADDRESS = "127.0.0.1";

    private final Path repoRoot;
    private final Set<Service> services = EnumSet.copyOf(Service.apis());
    private final Map<Service, Integer> ports = new EnumMap<>(Service.class);
    private final Map<Service, Integer> managementPorts = new EnumMap<>(Service.class);
    private final Map<Service, Map<String, String>> env = new EnumMap<>(Service.class);
    private DatabaseConnection externalDatabase;
    private Path dataDirectory;
    private int databasePort;
    private boolean freshDatabase;
    private Path stateDirectory;
    private Path logDirectory;
    /** The options given per service; one not given starts with its defaults on the suite's JDK. */
    private final Map<Service, List<String>> jvmOptions = new EnumMap<>(Service.class);
    private Duration readyTimeout = Duration.ofSeconds(120);
    private Duration stopGrace = Duration.ofSeconds(10);
    private JavaRuntime java = JavaRuntime.current();
    private boolean aotCache = true;
    private boolean shutdownHook = true;
    private String listenAddress = DEFAULT_LISTEN_ADDRESS;

    SuiteBuilder(Path repoRoot) {
        this.repoRoot = repoRoot.toAbsolutePath().normalize();
        for (Service s : Service.values()) {
            ports.put(s, s.defaultPort());
            managementPorts.put(s, s.defaultManagementPort());
        }
    }

    /** Runs only these services (the five by default). */
    public SuiteBuilder services(Set<Service> only) {
        services.clear();
        services.addAll(only);
        return this;
    }

    /** Runs the console too, after the five services. */
    public SuiteBuilder withConsole() {
        services.add(Service.CONSOLE);
        return this;
    }

    /** Runs the MCP server too, after the five services. */
    public SuiteBuilder withMcp() {
        services.add(Service.MCP);
        return this;
    }

    public SuiteBuilder port(Service service, int port) {
        ports.put(service, port);
        return this;
    }

    /**
     * Collector on {@code base + 1}, ledger on {@code base + 2}, … billing on {@code base + 5}, the console on
     * {@code base + 6}; their management ports 1000 above.
     */
    public SuiteBuilder basePort(int base) {
        for (Service s : Service.values()) {
            ports.put(s, base + s.ordinal() + 1);
            managementPorts.put(s, base + 1000 + s.ordinal() + 1);
        }
        return this;
    }

    /** The address every service (and the console) binds to, e.g. {@code 0.0.0.0} to be reachable from other machines. */
    public SuiteBuilder listen(String address) {
        if (address == null || address.isBlank() || !address.strip().matches("[A-Za-z0-9.:%_-]+")) {
            throw new IllegalArgumentException("the listen address must be an IP address or a host name, got '" + address + "'");
        }
        this.listenAddress = address.strip();
        return this;
    }

    /** Any free ports, API and management alike (tests). */
    public SuiteBuilder freePorts() {
        ports.putAll(Ports.freeFor(EnumSet.allOf(Service.class)));
        java.util.Set<Integer> taken = new java.util.HashSet<>(ports.values());
        for (Service s : Service.values()) {
            int port;
            do {
                port = Ports.anyFree();
            } while (!taken.add(port));
            managementPorts.put(s, port);
        }
        return this;
    }

    /** Embedded PostgreSQL on this data directory (default {@code <state>/pgdata}). */
    public SuiteBuilder embeddedDatabase(Path dataDirectory) {
        this.dataDirectory = dataDirectory;
        this.externalDatabase = null;
        return this;
    }

    /** Port of the embedded PostgreSQL; 0 (the default) for any free one. */
    public SuiteBuilder databasePort(int port) {
        this.databasePort = port;
        return this;
    }

    /** Wipe the embedded database's data directory before starting. */
    public SuiteBuilder freshDatabase(boolean fresh) {
        this.freshDatabase = fresh;
        return this;
    }

    /** A PostgreSQL run elsewhere; the suite neither starts nor stops it. */
    public SuiteBuilder externalDatabase(DatabaseConnection connection) {
        this.externalDatabase = connection;
        return this;
    }

    /** An environment variable for one service, e.g. the collector's API server URL. */
    public SuiteBuilder env(Service service, String name, String value) {
        env.computeIfAbsent(service, s -> new HashMap<>()).put(name, value);
        return this;
    }

    /** An environment variable for every service. */
    public SuiteBuilder env(String name, String value) {
        for (Service s : Service.values()) {
            env(s, name, value);
        }
        return this;
    }

    /** Where run records, logs and (by default) the database live; default {@code <repo>/.gpumeter}. */
    public SuiteBuilder stateDirectory(Path directory) {
        this.stateDirectory = directory;
        return this;
    }

    /** Default {@code <state>/logs}; each service logs to {@code <id>.log} there. */
    public SuiteBuilder logDirectory(Path directory) {
        this.logDirectory = directory;
        return this;
    }

    /** The same JVM options for every service, instead of each one's defaults ({@link JvmDefaults}). */
    public SuiteBuilder jvmOptions(List<String> options) {
        for (Service s : Service.values()) {
            jvmOptions(s, options);
        }
        return this;
    }

    /** One service's JVM options, instead of its defaults ({@link JvmDefaults#of}). */
    public SuiteBuilder jvmOptions(Service service, List<String> options) {
        jvmOptions.put(service, List.copyOf(options));
        return this;
    }

    public SuiteBuilder readyTimeout(Duration timeout) {
        this.readyTimeout = timeout;
        return this;
    }

    /** How long a service gets after SIGTERM before it is killed. */
    public SuiteBuilder stopGrace(Duration grace) {
        this.stopGrace = grace;
        return this;
    }

    /** The JDK that runs the services; by default the one this launcher runs on. */
    public SuiteBuilder java(JavaRuntime runtime) {
        this.java = runtime;
        return this;
    }

    /** On a JDK that keeps an ahead-of-time class cache (25 and later), record one and start from it; on by default. */
    public SuiteBuilder aotCache(boolean use) {
        this.aotCache = use;
        return this;
    }

    /** Stop everything when the JVM exits (Ctrl-C, SIGTERM); on by default. */
    public SuiteBuilder shutdownHook(boolean register) {
        this.shutdownHook = register;
        return this;
    }

    public SuiteConfig config() {
        Path state = stateDirectory != null ? stateDirectory.toAbsolutePath().normalize() : repoRoot.resolve(".gpumeter");
        Path logs = logDirectory != null ? logDirectory.toAbsolutePath().normalize() : state.resolve("logs");
        Path data = dataDirectory != null ? dataDirectory.toAbsolutePath().normalize() : state.resolve("pgdata");
        return new SuiteConfig(repoRoot, services, ports, managementPorts, externalDatabase, data, databasePort,
                freshDatabase, env, state, logs, jvmOptions, readyTimeout, stopGrace, shutdownHook, listenAddress, java, aotCache);
    }

    public Suite build() {
        return new Suite(config());
    }
}
