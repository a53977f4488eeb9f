package io.gpumeter.launcher.suite;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A service's ahead-of-time class cache on a JDK that keeps one (25 and later): the first start on a build records
 * which classes the service loads and links, and the JVM writes the cache when the service stops; every later start
 * of that same build maps the cache instead of loading those classes again. A cache belongs to one build, one JDK
 * and one set of JVM options, all in its file name: a rebuild starts a new recording, and the JVM itself refuses a
 * cache that does not match (the service then starts as if there were none).
 */
final class AotCache {

    /** How long a stopping service may take to write its cache: the JVM assembles it in a child process. */
    static final Duration WRITE_GRACE = Duration.ofMinutes(3);

    private final Path directory;
    private final JavaRuntime java;
    private final Map<Service, List<String>> jvmOptions;
    private final boolean enabled;

    /** @param jvmOptions the options given per service (a service not named: its defaults), which its cache goes with */
    AotCache(Path directory, JavaRuntime java, Map<Service, List<String>> jvmOptions, boolean enabled) {
        this.directory = directory;
        this.java = java;
        this.jvmOptions = Map.copyOf(jvmOptions);
        this.enabled = enabled;
    }

    /** What a start of {@code service} from {@code jar} does with the cache. */
    enum Use { NONE, RECORD, USE }

    Use use(Service service, Path jar) {
        if (!enabled || !java.keepsAotCache()) {
            return Use.NONE;
        }
        return isComplete(file(service, jar)) ? Use.USE : Use.RECORD;
    }

    /** The JVM options for that start. */
    List<String> options(Service service, Path jar) {
        Path file = file(service, jar);
        return switch (use(service, jar)) {
            case NONE -> List.of();
            case USE -> List.of("-XX:AOTCache=" + file);
            case RECORD -> {
                try {
                    Files.createDirectories(directory);
                    Files.deleteIfExists(file);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                yield List.of("-XX:AOTCacheOutput=" + file);
            }
        };
    }

    /** An interrupted write leaves an empty or short file, which the JVM would refuse: it is recorded again. */
    private static boolean isComplete(Path file) {
        try {
            return Files.isRegularFile(file) && Files.size(file) > 1 << 20;
        } catch (IOException e) {
            return false;
        }
    }

    Path file(Service service, Path jar) {
        return directory.resolve(service.module() + "-" + fingerprint(jar.getParent(),
                jvmOptions.containsKey(service) ? jvmOptions.get(service) : JvmDefaults.of(service, java)) + ".aot");
    }

    /** The build (every file of the application directory, by path, size and time), the JDK and the options. */
    private String fingerprint(Path appDirectory, List<String> options) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.update((java.version() + '\n' + String.join(" ", options) + '\n').getBytes(StandardCharsets.UTF_8));
            try (Stream<Path> files = Files.walk(appDirectory)) {
                for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                    String line = appDirectory.relativize(f) + " " + Files.size(f) + " " + Files.getLastModifiedTime(f).toMillis() + "\n";
                    digest.update(line.getBytes(StandardCharsets.UTF_8));
                }
            }
            return HexFormat.of().formatHex(digest.digest(), 0, 8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
