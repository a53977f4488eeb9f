package io.gpumeter.launcher.suite;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Each service's default JVM options, and the one the ledger leaves out on a JDK that would refuse it. */
class JvmDefaultsTest {

    private static JavaRuntime jdk(String version) {
        return new JavaRuntime(Path.of("/opt/jdk-" + version), Runtime.Version.parse(version).feature(), version);
    }

    @Test
    void theNativeHeapIsTrimmedOnlyByAJvmThatKnowsHow() {
        for (String version : List.of("17.0.9", "17.0.15", "17.0.15+6-Debian-1deb12u1", "21.0.1", "22", "25.0.3")) {
            assertTrue(jdk(version).trimsNativeHeap(), version);
        }
        for (String version : List.of("17", "17.0.8", "18.0.2", "20.0.2", "21", "21+35")) {
            assertFalse(jdk(version).trimsNativeHeap(), version);
        }
    }

    @Test
    void theLedgerHasItsOwnOptionsAndTheOthersTheLeanOnes() {
        List<String> ledger = JvmDefaults.of(Service.LEDGER, jdk("17.0.15"));
        assertTrue(ledger.containsAll(List.of("-XX:CICompilerCount=2", "-XX:ReservedCodeCacheSize=64m",
                "-XX:TrimNativeHeapInterval=5000", "-XX:+UseG1GC", "-Xmx512m")), ledger.toString());
        assertFalse(ledger.contains("-XX:TieredStopAtLevel=1"), ledger.toString());
        List<String> older = JvmDefaults.of(Service.LEDGER, jdk("17.0.8"));
        assertEquals(ledger.size() - 1, older.size(), older.toString());
        assertFalse(older.contains("-XX:TrimNativeHeapInterval=5000"), "a 17.0.8 JVM refuses it: " + older);
        for (Service s : List.of(Service.COLLECTOR, Service.SLO, Service.ALERT, Service.BILLING, Service.CONSOLE)) {
            List<String> lean = JvmDefaults.of(s, jdk("17.0.15"));
            assertTrue(lean.containsAll(List.of("-XX:TieredStopAtLevel=1", "-XX:ReservedCodeCacheSize=48m",
                    "-XX:+UseG1GC", "-Xmx512m")), s + ": " + lean);
            assertFalse(lean.stream().anyMatch(o -> o.startsWith("-XX:CICompilerCount") || o.startsWith("-XX:TrimNative")),
                    s + ": " + lean);
        }
    }
}
