package io.gpumeter.launcher.suite;

import java.util.ArrayList;
import java.util.List;

/**
 * The JVM options the launcher starts each service with unless told otherwise: small JVMs that give memory back, six
 * of them sharing two cores and a laptop's memory, and the ledger's JIT chosen for Q1's tail (docs/scale.md, "Q1 at
 * 10,000 GPUs and 1,000,000 pods" and "Memory").
 */
public final class JvmDefaults {

    /**
     * The collector options every service shares. G1 returns the heap a load no longer needs once the service is idle
     * (a full periodic collection, which compacts: a concurrent one left what a load had promoted in place until the
     * next young collections, which an idle service does not make), so a service settles near its working set after a
     * bulk replay instead of keeping its peak; class metadata and direct buffers are bounded.
     * <p>
     * Under a bulk load the collector was a third of the CPU the services spent (docs/scale.md, "Bulk replay"): a
     * request's facts stay live while it is handled, so every young collection copied them, and each multi-megabyte
     * body or bundle piece (humongous in G1) started another concurrent cycle. A young generation of 60–80 % of the
     * heap collects less often, a fixed occupancy threshold of 70 % starts a cycle only when the old generation fills,
     * and one parallel collector thread does not contend with the other processes on a small machine. The heap may
     * reach 512 MiB: two replay requests of 40,000 lines in flight keep about 250 MB live in the ledger, and under a
     * 384 MiB ceiling G1 collected every few megabytes and copied the same facts again each time; the periodic
     * collections give the heap back once the load is over, so a larger ceiling costs nothing after it. The heap keeps
     * up to 70 % of itself free when a concurrent cycle ends (and grows to 40 % free): held to 30 %, each cycle under a
     * replay shrank it back to the requests' live data, and the young collections that followed ran in a few megabytes
     * of free space, copying the same facts again each time (docs/scale.md, the eighteenth round). An idle service's
     * heap holds about 13 MB after its periodic collection, so the ratio costs it a few tens of megabytes at most.
     */
    private static final List<String> SHARED = List.of("-XX:+UseG1GC",
            "-XX:G1PeriodicGCInterval=15000", "-XX:-G1PeriodicGCInvokesConcurrent", "-XX:MinHeapFreeRatio=40",
            "-XX:MaxHeapFreeRatio=70", "-XX:+UnlockExperimentalVMOptions", "-XX:G1NewSizePercent=60",
            "-XX:G1MaxNewSizePercent=80", "-XX:-G1UseAdaptiveIHOP", "-XX:InitiatingHeapOccupancyPercent=70",
            "-XX:ParallelGCThreads=1", "-Xms32m", "-Xmx512m", "-XX:MaxMetaspaceSize=160m", "-XX:MaxDirectMemorySize=64m");

    /**
     * Every service but the ledger: C1 alone compiles, quick to start and with little compiled code, which a service
     * answering a page or a report now and then does not need to be faster.
     */
    public static final List<String> LEAN = with(List.of("-XX:TieredStopAtLevel=1"), List.of("-XX:ReservedCodeCacheSize=48m"));

    /** Returns to the system, every 5 s, the memory the C library keeps after the JIT's compilations freed it. */
    static final String TRIM_NATIVE_HEAP = "-XX:TrimNativeHeapInterval=5000";

    /**
     * The ledger answers Q1, the read whose tail is promised (p99 within 2 ms): C1's code spent about twice the CPU
     * per request, which on two cores shared with PostgreSQL was also twice the queueing (p99 3.05 ms on a
     * 1,000,000-pod month). The tiered JIT compiles the hot paths again with C2; two compiler threads (one each, the
     * least it takes) and a code cache capped at 64 MiB (it filled 24) bound what it adds, and the native heap is
     * trimmed: the C library kept the memory C2's compilations had freed, which held the ledger some 40 MiB above C1
     * alone 45 s after a load (docs/scale.md, "Q1 at 10,000 GPUs and 1,000,000 pods").
     */
    public static final List<String> LEDGER = with(List.of(), List.of("-XX:CICompilerCount=2",
            "-XX:ReservedCodeCacheSize=64m", TRIM_NATIVE_HEAP));

    private JvmDefaults() {
    }

    /** The options {@code service} starts with by default on the launcher's own JDK. */
    public static List<String> of(Service service) {
        return of(service, JavaRuntime.current());
    }

    /** The options {@code service} starts with by default on {@code java}, which may not know every one. */
    public static List<String> of(Service service, JavaRuntime java) {
        if (service != Service.LEDGER) {
            return LEAN;
        }
        return java.trimsNativeHeap() ? LEDGER : LEDGER.stream().filter(o -> !o.equals(TRIM_NATIVE_HEAP)).toList();
    }

    private static List<String> with(List<String> before, List<String> after) {
        List<String> all = new ArrayList<>(before);
        all.addAll(SHARED);
        all.addAll(after);
        return List.copyOf(all);
    }

    /** A service's defaults followed by {@code more} (a recording, a heap size to try). */
    public static List<String> plus(Service service, List<String> more) {
        List<String> options = new java.util.ArrayList<>(of(service));
        options.addAll(more);
        return List.copyOf(options);
    }
}
