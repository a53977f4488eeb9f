package io.gpumeter.launcher.suite;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The services' JVM options are taken as given by every JDK the launcher may run them on: a JVM refuses an
 * experimental flag named before it is unlocked, and ignores none silently, so each one must reach the final flags.
 */
class DefaultJvmOptionsTest {

    @Test
    void everyJdkHereTakesTheOptionsAsGiven() throws Exception {
        List<Path> javas = new ArrayList<>();
        javas.add(Path.of(System.getProperty("java.home"), "bin", "java"));
        Path jvms = Path.of("/usr/lib/jvm");
        if (Files.isDirectory(jvms)) { // the machine's other JDKs (Java 25 for the ahead-of-time cache)
            try (Stream<Path> dirs = Files.list(jvms)) {
                dirs.map(d -> d.resolve("bin/java")).filter(Files::isExecutable).forEach(javas::add);
            }
        }
        for (Path java : javas) {
            Map<String, String> lean = finalFlags(java, JvmDefaults.LEAN);
            String where = java + " with the lean options";
            assertShared(lean, where);
            assertEquals("1", lean.get("TieredStopAtLevel"), where);
            assertEquals(String.valueOf(48L << 20), lean.get("ReservedCodeCacheSize"), where);

            Map<String, String> ledger = finalFlags(java, JvmDefaults.LEDGER);
            where = java + " with the ledger's options";
            assertShared(ledger, where);
            assertEquals("4", ledger.get("TieredStopAtLevel"), where + ": C2 compiles the hot paths");
            assertEquals("2", ledger.get("CICompilerCount"), where + ": one C1 and one C2 thread");
            assertEquals(String.valueOf(64L << 20), ledger.get("ReservedCodeCacheSize"), where);
            assertEquals("5000", ledger.get("TrimNativeHeapInterval"), where);
        }
    }

    /** What every service's options set alike. */
    private static void assertShared(Map<String, String> flags, String where) {
        assertEquals("true", flags.get("UseG1GC"), where);
        assertEquals("15000", flags.get("G1PeriodicGCInterval"), where);
        assertEquals("false", flags.get("G1PeriodicGCInvokesConcurrent"), where);
        assertEquals("60", flags.get("G1NewSizePercent"), where);
        assertEquals("80", flags.get("G1MaxNewSizePercent"), where);
        assertEquals("false", flags.get("G1UseAdaptiveIHOP"), where);
        assertEquals("70", flags.get("InitiatingHeapOccupancyPercent"), where);
        assertEquals("40", flags.get("MinHeapFreeRatio"), where);
        assertEquals("70", flags.get("MaxHeapFreeRatio"), where);
        assertEquals("1", flags.get("ParallelGCThreads"), where);
        assertEquals(String.valueOf(512L << 20), flags.get("MaxHeapSize"), where);
        assertEquals(String.valueOf(160L << 20), flags.get("MaxMetaspaceSize"), where);
    }

    /** The JVM's final flags under {@code options}, by name. */
    private static Map<String, String> finalFlags(Path java, List<String> options) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(java.toString());
        command.addAll(options);
        command.add("-XX:+PrintFlagsFinal");
        command.add("-version");
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), java + " did not exit");
        assertEquals(0, p.exitValue(), java + " refused the options:\n" + out);
        Map<String, String> flags = new HashMap<>();
        for (String line : out.split("\n")) {
            String[] parts = line.trim().split("\\s+");
            // "<type> <name> = <value> {<kind>} {<origin>}"
            if (parts.length >= 4 && parts[2].equals("=")) {
                flags.put(parts[1], parts[3]);
            }
        }
        assertTrue(flags.size() > 100, java + " printed no flags:\n" + out);
        return flags;
    }
}
