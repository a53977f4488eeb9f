package io.gpumeter.launcher.suite;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AotCacheTest {

    @TempDir
    Path dir;

    @Test
    void aJdkIsKnownByItsReleaseFile() throws IOException {
        JavaRuntime j = JavaRuntime.at(fakeJdk("jdk25", "JAVA_VERSION=\"25.0.3\"\nIMPLEMENTOR=\"Eclipse Adoptium\"\n"));
        assertEquals(25, j.feature());
        assertEquals("25.0.3", j.version());
        assertTrue(j.keepsAotCache());
        assertFalse(JavaRuntime.at(fakeJdk("jdk17", "JAVA_VERSION=\"17.0.15\"\n")).keepsAotCache());
        assertEquals(26, JavaRuntime.at(fakeJdk("jdk26ea", "JAVA_VERSION=\"26-ea\"\n")).feature());
        assertEquals(Runtime.version().feature(), JavaRuntime.current().feature());
    }

    @Test
    void notAJdkIsAClearError() throws IOException {
        assertTrue(assertThrows(SuiteException.class, () -> JavaRuntime.at(dir.resolve("nowhere")))
                .getMessage().contains("no Java runtime at"));
        Path noVersion = fakeJdk("noversion", "IMPLEMENTOR=\"x\"\n");
        assertTrue(assertThrows(SuiteException.class, () -> JavaRuntime.at(noVersion))
                .getMessage().contains("names no JAVA_VERSION"));
    }

    @Test
    void aFirstStartRecordsThenLaterStartsUseTheCache() throws IOException {
        Path jar = app("ledger-service");
        AotCache cache = new AotCache(dir.resolve("aot"), JavaRuntime.at(fakeJdk("jdk25", "JAVA_VERSION=\"25.0.3\"\n")),
                each("-Xmx256m"), true);
        assertEquals(AotCache.Use.RECORD, cache.use(Service.LEDGER, jar));
        Path file = cache.file(Service.LEDGER, jar);
        assertEquals(List.of("-XX:AOTCacheOutput=" + file), cache.options(Service.LEDGER, jar));

        Files.write(file, new byte[10]); // a write cut short
        assertEquals(AotCache.Use.RECORD, cache.use(Service.LEDGER, jar));
        assertEquals(List.of("-XX:AOTCacheOutput=" + file), cache.options(Service.LEDGER, jar));
        assertFalse(Files.exists(file));

        Files.write(file, new byte[2 << 20]);
        assertEquals(AotCache.Use.USE, cache.use(Service.LEDGER, jar));
        assertEquals(List.of("-XX:AOTCache=" + file), cache.options(Service.LEDGER, jar));
    }

    @Test
    void aRebuildAnotherJdkOrOtherOptionsNeedAnotherCache() throws IOException {
        Path jar = app("collector-service");
        JavaRuntime jdk = JavaRuntime.at(fakeJdk("jdk25", "JAVA_VERSION=\"25.0.3\"\n"));
        Path first = new AotCache(dir.resolve("aot"), jdk, each("-Xmx256m"), true).file(Service.COLLECTOR, jar);
        assertTrue(first.getFileName().toString().matches("collector-service-[0-9a-f]{16}\\.aot"), first.toString());

        assertEquals(first, new AotCache(dir.resolve("aot"), jdk, each("-Xmx256m"), true).file(Service.COLLECTOR, jar));
        assertNotEquals(first, new AotCache(dir.resolve("aot"), jdk, each("-Xmx128m"), true).file(Service.COLLECTOR, jar));
        // a service's cache goes with its own options, whatever the others start with
        Map<Service, List<String>> ledgerApart = new EnumMap<>(each("-Xmx256m"));
        ledgerApart.put(Service.LEDGER, List.of("-Xmx128m"));
        assertEquals(first, new AotCache(dir.resolve("aot"), jdk, ledgerApart, true).file(Service.COLLECTOR, jar));
        assertNotEquals(first, new AotCache(dir.resolve("aot"), JavaRuntime.at(fakeJdk("jdk25b", "JAVA_VERSION=\"25.0.4\"\n")),
                each("-Xmx256m"), true).file(Service.COLLECTOR, jar));
        Path lib = jar.getParent().resolve("lib/main/dep.jar");
        Files.setLastModifiedTime(lib, FileTime.fromMillis(Files.getLastModifiedTime(lib).toMillis() + 5_000));
        assertNotEquals(first, new AotCache(dir.resolve("aot"), jdk, each("-Xmx256m"), true).file(Service.COLLECTOR, jar));
    }

    @Test
    void olderJdksAndAnOptOutStartWithoutACache() throws IOException {
        Path jar = app("slo-service");
        assertTrue(new AotCache(dir.resolve("aot"), JavaRuntime.at(fakeJdk("jdk17", "JAVA_VERSION=\"17.0.15\"\n")),
                each(), true).options(Service.SLO, jar).isEmpty());
        assertTrue(new AotCache(dir.resolve("aot"), JavaRuntime.at(fakeJdk("jdk25", "JAVA_VERSION=\"25.0.3\"\n")),
                each(), false).options(Service.SLO, jar).isEmpty());
    }

    /** The same options for every service. */
    private static Map<Service, List<String>> each(String... options) {
        Map<Service, List<String>> all = new EnumMap<>(Service.class);
        for (Service s : Service.values()) {
            all.put(s, List.of(options));
        }
        return all;
    }

    private Path fakeJdk(String name, String release) throws IOException {
        Path home = dir.resolve(name);
        Files.createDirectories(home.resolve("bin"));
        Path java = Files.writeString(home.resolve("bin/java"), "#!/bin/sh\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.writeString(home.resolve("release"), release);
        return home;
    }

    private Path app(String module) throws IOException {
        Path app = dir.resolve(module).resolve("target/quarkus-app");
        Files.createDirectories(app.resolve("lib/main"));
        Files.writeString(app.resolve("lib/main/dep.jar"), "dependency");
        return Files.writeString(app.resolve("quarkus-run.jar"), "runner");
    }
}
