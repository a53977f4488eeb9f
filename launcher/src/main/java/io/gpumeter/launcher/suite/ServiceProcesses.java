package io.gpumeter.launcher.suite;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * The services' child JVMs: each started only once its jar is built, no stale run record names it and its ports are
 * free; recorded on disk while it runs, so that a later launcher finds what an earlier one left; with what its start
 * did with its ahead-of-time class cache; and all stopped together within the grace (longer while a cache is written).
 */
final class ServiceProcesses {

    /** Logged as the suite's own lines: the operator reads one voice for starting and stopping. */
    private static final Logger LOG = LoggerFactory.getLogger(Suite.class);

    private final SuiteConfig config;
    private final ReadinessProbe probe;
    private final RunRecords records;
    private final AotCache aot;
    private final Function<Service, Map<String, String>> environment;
    private final Map<Service, ServiceProcess> running = new ConcurrentHashMap<>();
    private final Map<Service, AotCache.Use> aotUse = new ConcurrentHashMap<>();

    /** @param environment the variables a service starts with, asked for as it starts */
    ServiceProcesses(SuiteConfig config, Function<Service, Map<String, String>> environment) {
        this.config = config;
        this.probe = new ReadinessProbe(ListenAddress.urlHost(config.listenAddress()));
        this.records = new RunRecords(config.stateDirectory().resolve("run"));
        this.aot = new AotCache(config.stateDirectory().resolve("aot"), config.java(), config.jvmOptions(), config.aotCache());
        this.environment = environment;
    }

    /** Checks that a service can start: its jar is built, no stale record names it, its ports are free. */
    void prepare(Service service) {
        requireJar(service);
        records.clearStale(service);
        Ports.requireFree(service, config.ports().get(service));
        Ports.requireFree(service, config.managementPorts().get(service));
    }

    ServiceProcess spawn(Service service) {
        Path jar = service.jar(config.repoRoot());
        int port = config.ports().get(service);
        int managementPort = config.managementPorts().get(service);
        try {
            AotCache.Use use = aot.use(service, jar);
            List<String> options = new ArrayList<>(config.jvmOptions(service));
            options.addAll(aot.options(service, jar));
            ServiceProcess process = ServiceProcess.spawn(service, config.java().executable(), jar, config.repoRoot(),
                    port, managementPort, options, environment.apply(service), logFile(service));
            aotUse.put(service, use);
            running.put(service, process);
            records.write(service, process.pid(), jar);
            LOG.info("{} starting on port {}, management port {} (pid {}, log {})", service.module(), port,
                    managementPort, process.pid(), logFile(service));
            return process;
        } catch (IOException e) {
            throw new SuiteException("could not start " + service.module() + ": " + e.getMessage(), e);
        }
    }

    /** Waits until the processes answer ready, or fails when the start-up is {@code cancelled} or times out. */
    void awaitReady(List<ServiceProcess> processes, BooleanSupplier cancelled) {
        probe.awaitReady(processes, config.readyTimeout(), cancelled);
    }

    /** How many services run. */
    int count() {
        return running.size();
    }

    /** Asks every running service to stop, without waiting. */
    void terminateAll() {
        running.values().forEach(ServiceProcess::terminate);
    }

    /** Stops every service, killing those still up once the grace is over, and forgets their run records. */
    void stopAll() {
        List<ServiceProcess> processes = new ArrayList<>(running.values());
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
    }

    /** The running process of a service; null when it is not running. */
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

    Optional<Duration> readyAfter(Service service) {
        ServiceProcess p = running.get(service);
        return p == null ? Optional.empty() : Optional.ofNullable(p.readyAfter());
    }

    AotCache.Use aotUse(Service service) {
        return aotUse.getOrDefault(service, AotCache.Use.NONE);
    }

    boolean isRunning(Service service) {
        ServiceProcess p = running.get(service);
        return p != null && p.isAlive();
    }

    OptionalLong pid(Service service) {
        ServiceProcess p = running.get(service);
        return p != null && p.isAlive() ? OptionalLong.of(p.pid()) : OptionalLong.empty();
    }

    Path logFile(Service service) {
        return config.logDirectory().resolve(service.id() + ".log");
    }

    private void requireJar(Service service) {
        Path jar = service.jar(config.repoRoot());
        if (!Files.isRegularFile(jar)) {
            throw new SuiteException(jar + " is missing: build the services first "
                    + "(./gpumeter up --build, or mvn -DskipTests package)");
        }
    }
}
