package io.gpumeter.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * CPU time a process tree has used, from Linux's /proc: user and system time of the process, of its live children,
 * and of the children it has already reaped. A service is one process; the database is its postmaster and one
 * backend per connection, so its figure is the whole tree's.
 */
final class ProcessCpu {

    /** Clock ticks per second of /proc/[pid]/stat: USER_HZ, 100 on every Linux architecture this runs on. */
    private static final double TICKS = 100.0;

    private final long pid;
    private final boolean withChildren;

    private ProcessCpu(long pid, boolean withChildren) {
        this.pid = pid;
        this.withChildren = withChildren;
    }

    static ProcessCpu of(long pid) {
        return new ProcessCpu(pid, false);
    }

    /** The PostgreSQL server running on {@code dataDirectory}, from the first line of its postmaster.pid. */
    static Optional<ProcessCpu> postgres(Path dataDirectory) {
        try {
            String first = Files.readAllLines(dataDirectory.resolve("postmaster.pid")).get(0).strip();
            return Optional.of(new ProcessCpu(Long.parseLong(first), true));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Seconds of CPU used so far; NaN where /proc cannot tell. */
    double seconds() {
        Optional<long[]> own = stat(pid);
        if (own.isEmpty()) {
            return Double.NaN;
        }
        long ticks = own.get()[0] + own.get()[1];
        if (withChildren) {
            ticks += own.get()[2] + own.get()[3];
            try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
                ticks += procs.map(p -> p.getFileName().toString()).filter(n -> n.chars().allMatch(Character::isDigit))
                        .map(n -> stat(Long.parseLong(n))).flatMap(Optional::stream)
                        .filter(s -> s[4] == pid).mapToLong(s -> s[0] + s[1]).sum();
            } catch (IOException e) {
                return Double.NaN;
            }
        }
        return ticks / TICKS;
    }

    /**
     * Seconds of CPU a JVM's garbage collector has used so far: its threads' user and system time, the pauses' workers
     * ("GC Thread#n"), G1's concurrent and refinement threads ("G1 …") and the VM thread that runs the pauses. A share
     * of the process's own CPU, it compares collector settings across runs whose machine ran at different speeds.
     */
    double garbageCollectionSeconds() {
        try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            return tasks.mapToLong(ProcessCpu::collectorTicks).sum() / TICKS;
        } catch (IOException e) {
            return Double.NaN;
        }
    }

    private static long collectorTicks(Path task) {
        try {
            String stat = Files.readString(task.resolve("stat"));
            String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
            if (!name.startsWith("GC Thread") && !name.startsWith("G1 ") && !name.equals("VM Thread")) {
                return 0;
            }
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(f[11]) + Long.parseLong(f[12]);
        } catch (IOException | RuntimeException e) {
            return 0; // a thread that ended meanwhile
        }
    }

    /** utime, stime, cutime, cstime and the parent's pid of one process. */
    private static Optional<long[]> stat(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            // The command name, field 2, is in parentheses and may hold spaces: count the fields after its end.
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Optional.of(new long[] {Long.parseLong(f[11]), Long.parseLong(f[12]), Long.parseLong(f[13]),
                    Long.parseLong(f[14]), Long.parseLong(f[1])});
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * Named processes read together: what each spent over a phase, and per 1,000 units of the phase's work; for the
     * JVMs among them, the part their garbage collectors spent.
     */
    static final class Group {
        private static final String COLLECTOR = " garbage collection";

        private final Map<String, ProcessCpu> processes = new LinkedHashMap<>();
        private final Map<String, ProcessCpu> jvms = new LinkedHashMap<>();

        Group add(String name, ProcessCpu process) {
            processes.put(name, process);
            return this;
        }

        /** A Java process: its collector's share is reported beside its CPU. */
        Group addJvm(String name, ProcessCpu process) {
            jvms.put(name, process);
            return add(name, process);
        }

        /** Each process's CPU seconds so far, and each JVM's collector's, to hand back to {@link #since}. */
        Map<String, Double> now() {
            Map<String, Double> now = new LinkedHashMap<>();
            processes.forEach((name, c) -> now.put(name, c.seconds()));
            jvms.forEach((name, c) -> now.put(name + COLLECTOR, c.garbageCollectionSeconds()));
            return now;
        }

        /**
         * The report lines: each process's seconds since {@code before} and milliseconds per 1,000 units, and the sum;
         * then each JVM's collector's seconds and share of that JVM's CPU.
         */
        String since(Map<String, Double> before, String phase, long units, String unit) {
            Map<String, Double> now = now();
            StringBuilder line = new StringBuilder("  CPU of the " + phase + ", seconds (ms per 1,000 " + unit + "):");
            double total = 0;
            for (String name : processes.keySet()) {
                double used = now.get(name) - before.get(name);
                total += used;
                line.append(String.format(" %s %.1f (%.0f);", name, used, used * 1e6 / units));
            }
            line.append(String.format(" all %.1f (%.0f)", total, total * 1e6 / units));
            if (!jvms.isEmpty()) {
                line.append("\n    of which garbage collection:");
                for (String name : jvms.keySet()) {
                    double used = now.get(name) - before.get(name);
                    double collecting = now.get(name + COLLECTOR) - before.get(name + COLLECTOR);
                    line.append(String.format(" %s %.1f s (%.0f %%);", name, collecting, 100 * collecting / used));
                }
            }
            return line.toString();
        }
    }
}
