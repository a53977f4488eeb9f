package io.gpumeter.launcher.suite;

import io.gpumeter.launcher.db.DatabaseConnection;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Everything a {@link Suite} needs to know before it starts; made by {@link SuiteBuilder}.
 *
 * @param externalDatabase null to run the embedded PostgreSQL on {@code dataDirectory}
 * @param managementPorts  where each service serves {@code /q/health} and {@code /q/metrics}
 * @param databasePort     port of the embedded PostgreSQL, 0 for any free one
 * @param env              extra environment per service, applied after the suite's own variables
 * @param jvmOptions       the JVM options given per service; a service not named starts with its defaults
 * @param listenAddress    the address every service binds to (quarkus.http.host), 127.0.0.1 unless told otherwise
 * @param java             the JDK that runs the services
 * @param aotCache         whether services on a JDK that keeps an ahead-of-time class cache record and use one
 */
public record SuiteConfig(Path repoRoot, Set<Service> services, Map<Service, Integer> ports,
                          Map<Service, Integer> managementPorts,
                          DatabaseConnection externalDatabase, Path dataDirectory, int databasePort,
                          boolean freshDatabase, Map<Service, Map<String, String>> env, Path stateDirectory,
                          Path logDirectory, Map<Service, List<String>> jvmOptions, Duration readyTimeout, Duration stopGrace,
                          boolean shutdownHook, String listenAddress, JavaRuntime java, boolean aotCache) {

    public SuiteConfig {
        // enum order, so that services start and are reported in a stable order
        services = services.isEmpty() ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(services));
        ports = Map.copyOf(ports);
        managementPorts = Map.copyOf(managementPorts);
        env = env.entrySet().stream().collect(Collectors.toUnmodifiableMap(Map.Entry::getKey, e -> Map.copyOf(e.getValue())));
        jvmOptions = jvmOptions.entrySet().stream().collect(Collectors.toUnmodifiableMap(Map.Entry::getKey,
                e -> List.copyOf(e.getValue())));
    }

    /** The JVM options {@code service} starts with: the ones given for it, else its defaults on {@link #java}. */
    public List<String> jvmOptions(Service service) {
        return jvmOptions.containsKey(service) ? jvmOptions.get(service) : JvmDefaults.of(service, java);
    }
}
