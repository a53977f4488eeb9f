package io.gpumeter.bench;

import io.gpumeter.launcher.suite.Service;
import io.gpumeter.launcher.suite.Suite;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * What each service keeps once a load is over: after a quiet wait (G1's periodic collection runs 15 s after the last
 * one), its resident memory and peak from /proc, and how much of its code cache the JIT filled (jcmd).
 */
final class SettledMemory {

    /** How long after the load resident memory is read, as docs/scale.md states it. */
    static final Duration AFTER = Duration.ofSeconds(45);
    /** What a service may keep resident once settled. */
    private static final long TARGET_MIB = 256;

    private SettledMemory() {
    }

    /** Waits {@link #AFTER}, then prints each running service's figures and start-up time. */
    static void report(Suite suite) throws InterruptedException {
        Thread.sleep(AFTER.toMillis());
        System.out.printf("%d s after the load:%n", AFTER.toSeconds());
        for (Service s : suite.config().services()) {
            long pid = suite.pid(s).orElse(-1);
            if (pid < 0) {
                continue;
            }
            long rss = kib(pid, "VmRSS") >> 10;
            System.out.printf("  %-16s RSS %4d MiB (%s %d MiB), peak %4d MiB; %s; ready %.1f s after its start%n",
                    s.module(), rss, rss <= TARGET_MIB ? "within" : "NOT within", TARGET_MIB, kib(pid, "VmHWM") >> 10,
                    codeCache(pid), suite.readyAfter(s).map(d -> d.toMillis() / 1000.0).orElse(Double.NaN));
        }
    }

    private static long kib(long pid, String field) {
        try {
            return Files.readAllLines(Path.of("/proc/" + pid + "/status")).stream()
                    .filter(l -> l.startsWith(field + ":"))
                    .mapToLong(l -> Long.parseLong(l.substring(field.length() + 1).replace("kB", "").strip()))
                    .findFirst().orElse(-1);
        } catch (IOException e) {
            return -1;
        }
    }

    private static long field(String line, String name) {
        int from = line.indexOf(name) + name.length();
        return Long.parseLong(line.substring(from, line.indexOf("Kb", from)));
    }

    /** The code cache's size and use as {@code jcmd Compiler.codecache} prints them, or why not. */
    private static String codeCache(long pid) {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        try {
            Process p = new ProcessBuilder(List.of(jcmd.toString(), Long.toString(pid), "Compiler.codecache"))
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            p.waitFor();
            // one line per code heap ("CodeCache: size=49152Kb used=21740Kb max_used=21755Kb free=27411Kb"), three
            // when the cache is segmented (240 MiB and more)
            long[] sum = new long[3];
            out.lines().filter(l -> l.contains("size=") && l.contains("max_used=")).forEach(l -> {
                sum[0] += field(l, "size=");
                sum[1] += field(l, " used=");
                sum[2] += field(l, "max_used=");
            });
            return sum[0] == 0 ? "code cache unknown"
                    : String.format("code cache %d MiB, %d MiB used (at most %d MiB)", sum[0] >> 10, sum[1] >> 10, sum[2] >> 10);
        } catch (IOException e) {
            return "code cache unknown (" + e.getMessage() + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "code cache unknown";
        }
    }
}
