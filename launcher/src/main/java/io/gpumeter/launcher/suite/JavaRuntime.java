package io.gpumeter.launcher.suite;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The JDK that runs the services: its home and its feature version, read from the {@code release} file every JDK
 * carries, so that choosing one costs no process start.
 */
public record JavaRuntime(Path home, int feature, String version) {

    /** From this feature version on, the JVM keeps an ahead-of-time cache of loaded and linked classes (JEP 483, 514). */
    public static final int AOT_CACHE_FEATURE = 25;

    private static final Pattern VERSION = Pattern.compile("(?m)^JAVA_VERSION=\"?([0-9][^\"\\s]*)\"?");

    /** The JDK this launcher runs on ({@code JAVA_HOME} when the {@code gpumeter} script started it). */
    public static JavaRuntime current() {
        Runtime.Version v = Runtime.version();
        return new JavaRuntime(Path.of(System.getProperty("java.home")), v.feature(), v.toString());
    }

    /** The JDK installed at {@code home}; a clear error when there is none. */
    public static JavaRuntime at(Path home) {
        Path java = home.resolve("bin").resolve("java");
        if (!Files.isExecutable(java)) {
            throw new SuiteException("no Java runtime at " + home + ": " + java + " is missing or not executable");
        }
        try {
            Matcher m = VERSION.matcher(Files.readString(home.resolve("release")));
            if (!m.find()) {
                throw new SuiteException(home.resolve("release") + " names no JAVA_VERSION");
            }
            String version = m.group(1);
            return new JavaRuntime(home, Integer.parseInt(version.split("[.+-]")[0]), version);
        } catch (IOException e) {
            throw new SuiteException("cannot read the version of the JDK at " + home + " (" + home.resolve("release")
                    + " is unreadable)", e);
        }
    }

    public Path executable() {
        return home.resolve("bin").resolve("java");
    }

    public boolean keepsAotCache() {
        return feature >= AOT_CACHE_FEATURE;
    }

    /**
     * Whether the JVM takes {@code -XX:TrimNativeHeapInterval}: JDK 22 on, and the backports to 21.0.1 and 17.0.9
     * (an experimental flag there until 17.0.11, which the launcher's options unlock); an older JVM refuses to start
     * with it.
     */
    public boolean trimsNativeHeap() {
        try {
            Runtime.Version v = Runtime.Version.parse(version);
            return v.feature() >= 22 || (v.feature() == 21 && v.update() >= 1) || (v.feature() == 17 && v.update() >= 9);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
