package io.gpumeter.bench;

import io.gpumeter.launcher.suite.JavaRuntime;
import io.gpumeter.launcher.suite.Service;
import io.gpumeter.launcher.suite.Suite;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Each service's time from launch to ready, side by side in one run: on the launcher's own JDK, then on a Java 25
 * JDK twice — the first start records the ahead-of-time class cache (written as the suite stops), the second starts
 * from it. The same database (migrated by the first start) serves all three.
 * Usage: {@code bench/run startup [--java25=DIR]} (default: the first JDK 25 or later under /usr/lib/jvm).
 */
public final class StartupBench {

    public static void main(String[] args) throws Exception {
        Path java25 = null;
        for (String arg : args) {
            if (arg.startsWith("--java25=")) {
                java25 = Path.of(arg.substring("--java25=".length()));
            }
        }
        Optional<JavaRuntime> newer = java25 != null ? Optional.of(JavaRuntime.at(java25)) : findJava25();
        Path root = Path.of("").toAbsolutePath();
        Path state = root.resolve("bench/target/startup");
        Map<String, Map<Service, Duration>> columns = new LinkedHashMap<>();
        JavaRuntime current = JavaRuntime.current();
        columns.put("Java " + current.version(), start(root, state, current, true));
        if (newer.isEmpty() || !newer.get().keepsAotCache()) {
            System.out.println("no JDK 25 or later found (--java25=DIR names one): only the default JDK was measured");
        } else {
            Trees.delete(state.resolve("aot"));
            columns.put("Java " + newer.get().version() + ", recording", start(root, state, newer.get(), false));
            columns.put("Java " + newer.get().version() + ", from cache", start(root, state, newer.get(), false));
        }
        System.out.printf("%nseconds from launch to ready, %d cores%n%-10s", Runtime.getRuntime().availableProcessors(), "service");
        columns.keySet().forEach(c -> System.out.printf(" %28s", c));
        System.out.println();
        for (Service s : Service.apis()) {
            System.out.printf("%-10s", s.id());
            for (Map<Service, Duration> column : columns.values()) {
                Duration d = column.get(s);
                System.out.printf(" %28s", d == null ? "-" : String.format("%.1f", d.toMillis() / 1000.0));
            }
            System.out.println();
        }
    }

    private static Map<Service, Duration> start(Path root, Path state, JavaRuntime java, boolean fresh) {
        Map<Service, Duration> ready = new LinkedHashMap<>();
        try (Suite suite = Suite.builder(root).freePorts().java(java).embeddedDatabase(state.resolve("pgdata"))
                .freshDatabase(fresh).stateDirectory(state).logDirectory(state.resolve("logs"))
                .env(Service.COLLECTOR, "GPUMETER_COLLECTOR_WATCH_ENABLED", "false")
                .readyTimeout(Duration.ofMinutes(5)).build().start()) {
            for (Service s : Service.apis()) {
                suite.readyAfter(s).ifPresent(d -> ready.put(s, d));
                System.out.printf("  %s on Java %s: ready in %.1f s (class cache %s)%n", s.id(), java.version(),
                        ready.getOrDefault(s, Duration.ZERO).toMillis() / 1000.0, suite.aotCache(s));
            }
        }
        return ready;
    }

    private static Optional<JavaRuntime> findJava25() throws IOException {
        Path jvms = Path.of("/usr/lib/jvm");
        if (!Files.isDirectory(jvms)) {
            return Optional.empty();
        }
        List<JavaRuntime> found = new ArrayList<>();
        try (Stream<Path> homes = Files.list(jvms)) {
            for (Path home : homes.sorted().toList()) {
                if (Files.isRegularFile(home.resolve("release")) && Files.isExecutable(home.resolve("bin/java"))) {
                    JavaRuntime j = JavaRuntime.at(home);
                    if (j.keepsAotCache()) {
                        found.add(j);
                    }
                }
            }
        }
        return found.stream().findFirst();
    }
}
