package io.gpumeter.bench;

import io.gpumeter.common.fact.FactBatch;
import io.gpumeter.common.fact.GovernanceBatch;
import io.gpumeter.common.fact.NamespaceFact;
import io.gpumeter.common.fact.NodeFact;
import io.gpumeter.common.fact.Owner;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.common.fact.RegisteredGpu;
import io.gpumeter.common.fact.VgpuGrant;
import io.gpumeter.common.fact.WatchEventType;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * A month of allocation facts for a large fleet, deterministic by seed: nodes of 8 GPUs in three pools (HAMi
 * vGPU on H100, whole A100 cards, MIG A100), and back-to-back pods on every card from the month's start to its end;
 * a scale below 1 shortens holds and gaps for more pods on the same cards. With a name prefix the month's tenants and
 * the uids of its namespaces, nodes and pods carry it, so that several clusters' months in one ledger are each their
 * own (as uids are across clusters) and a tenant's month is one cluster's; without one two months share their names.
 */
final class FleetMonth {

    static final String CLUSTER = "bench";
    private static final int TENANTS = 40;
    /** A pod holds its slot for 1 minute to 4 days, then the slot stays empty up to 3 hours (at scale 1). */
    private static final int MAX_HOLD_MINUTES = 4 * 24 * 60;
    private static final int MAX_GAP_MINUTES = 3 * 60;

    private final int gpus;
    private final Instant start;
    private final Instant end;
    private final SplittableRandom random;
    private final long seed;
    private final List<String> hamiUuids = new ArrayList<>();
    private final int maxHoldMinutes;
    private final int maxGapMinutes;
    private final String prefix;
    private long revision = 1;
    private long pods;
    private QueuedWorkloads queued;

    FleetMonth(int gpus, Instant start, Instant end, long seed) {
        this(gpus, start, end, seed, 1.0);
    }

    /**
     * @param scale multiplies the longest hold and gap; below 1 the same cards see proportionally more, shorter pods
     */
    FleetMonth(int gpus, Instant start, Instant end, long seed, double scale) {
        this("", gpus, start, end, seed, scale);
    }

    /** A month whose tenants and uids start with {@code prefix} (the cluster's name and a dash, say). */
    FleetMonth(String prefix, int gpus, Instant start, Instant end, long seed, double scale) {
        this.prefix = prefix;
        this.gpus = gpus;
        this.start = start;
        this.end = end;
        this.random = new SplittableRandom(seed);
        this.seed = seed;
        this.maxHoldMinutes = Math.max(2, (int) Math.round(MAX_HOLD_MINUTES * scale));
        this.maxGapMinutes = Math.max(1, (int) Math.round(MAX_GAP_MINUTES * scale));
    }

    /**
     * The scale at which a month of {@code gpus} cards holds about {@code pods} pods: each slot cycles through a hold
     * (mean max/2) and a gap (mean max/2), so a slot sees about (month + 3 h head start) / mean cycle pods.
     */
    static double scaleFor(int gpus, long pods, Instant start, Instant end) {
        double slots = 0;
        int nodes = gpus / 8;
        for (int n = 0; n < nodes; n++) {
            slots += 8 * (n % 3 == 1 ? 1 : 2);
        }
        double minutes = Duration.between(start, end).toMinutes() + 3 * 60;
        double cycleAtScaleOne = (MAX_HOLD_MINUTES + MAX_GAP_MINUTES) / 2.0;
        return slots * minutes / pods / cycleAtScaleOne;
    }

    /** The name of tenant {@code t} of this month's 40, {@code 0 <= t < 40}. */
    String tenant(int t) {
        return prefix + "tenant-" + t;
    }

    List<String> hamiUuids() {
        return hamiUuids;
    }

    long pods() {
        return pods;
    }

    /** Emits the whole month in batches of about {@code batchSize} facts. */
    void emit(int batchSize, Consumer<FactBatch> sink) {
        emit(CLUSTER, batchSize, sink);
    }

    /**
     * Emits the whole month with the Kueue Workloads of its HAMi pool's pods ({@link QueuedWorkloads}, queued up to
     * a slot's longest gap), each batch's workloads to {@code governance} after its pods to {@code sink}.
     */
    void emit(int batchSize, Consumer<FactBatch> sink, Consumer<GovernanceBatch> governance) {
        queued = new QueuedWorkloads(seed + 1, Duration.ofMinutes(maxGapMinutes));
        try {
            emit(CLUSTER, batchSize, batch -> {
                sink.accept(batch);
                governance.accept(GovernanceBatch.of(batch.cluster(), queued.drain()));
            });
        } finally {
            queued = null;
        }
    }

    /** Emits the whole month as facts of {@code cluster}, in batches of about {@code batchSize} facts. */
    void emit(String cluster, int batchSize, Consumer<FactBatch> sink) {
        Instant seen = start.minus(Duration.ofDays(1));
        List<NamespaceFact> namespaces = new ArrayList<>();
        for (int t = 0; t < TENANTS; t++) {
            for (int n = 0; n < 3; n++) {
                namespaces.add(new NamespaceFact(namespace(t, n), prefix + "ns-" + t + "-" + n, rv(), WatchEventType.ADDED,
                        seen, Map.of("gpumeter.io/tenant", tenant(t), "gpumeter.io/team", "team-" + n), Map.of()));
            }
        }
        List<NodeFact> nodes = new ArrayList<>();
        List<PodFact> batch = new ArrayList<>();
        int nodeCount = gpus / 8;
        for (int n = 0; n < nodeCount; n++) {
            String node = "node-" + n;
            int pool = n % 3;
            nodes.add(node(node, pool, seen));
            for (int g = 0; g < 8; g++) {
                String uuid = pool == 0 ? hamiUuids.get(hamiUuids.size() - 8 + g) : null;
                int slots = pool == 1 ? 1 : 2;
                for (int s = 0; s < slots; s++) {
                    podsOnSlot(node, pool, uuid, batch);
                }
            }
            if (batch.size() >= batchSize || n == nodeCount - 1) {
                sink.accept(new FactBatch(cluster, namespaces, nodes, batch));
                namespaces = List.of();
                nodes = new ArrayList<>();
                batch = new ArrayList<>();
            }
        }
    }

    private NodeFact node(String name, int pool, Instant seen) {
        List<RegisteredGpu> registered = new ArrayList<>();
        String product = pool == 0 ? "NVIDIA-H100-80GB-HBM3" : "NVIDIA-A100-SXM4-80GB";
        if (pool == 0) {
            for (int g = 0; g < 8; g++) {
                String uuid = "GPU-" + new java.util.UUID(random.nextLong(), random.nextLong());
                hamiUuids.add(uuid);
                registered.add(new RegisteredGpu(uuid, product, 81920, 100, 10, 0, true));
            }
        }
        Map<String, String> labels = pool == 2
                ? Map.of("nvidia.com/gpu.product", product, "nvidia.com/gpu.memory", "81920", "nvidia.com/mig.strategy", "mixed")
                : Map.of("nvidia.com/gpu.product", product, "nvidia.com/gpu.memory", "81920");
        return new NodeFact(name, prefix + "uid-" + name, rv(), WatchEventType.ADDED, seen, labels, registered);
    }

    /** Back-to-back pods from the month's start until one runs past its end (and stays running). */
    private void podsOnSlot(String node, int pool, String uuid, List<PodFact> out) {
        Instant t = start.minus(Duration.ofMinutes(random.nextInt(0, 6 * 60)));
        while (t.isBefore(end)) {
            Duration held = Duration.ofMinutes(random.nextInt(1, maxHoldMinutes));
            Instant finished = t.plus(held);
            int tenant = random.nextInt(TENANTS);
            int team = random.nextInt(3);
            String ns = namespace(tenant, team);
            String uid = prefix + "pod-" + (++pods);
            Map<String, Long> resources;
            List<VgpuGrant> vgpus = List.of();
            if (pool == 0) {
                int cores = random.nextInt(0, 6) * 10;
                long memory = 8192L * random.nextInt(1, 5);
                resources = Map.of("nvidia.com/gpu", 1L, "nvidia.com/gpumem", memory, "nvidia.com/gpucores", (long) cores);
                vgpus = List.of(new VgpuGrant(0, uuid, "NVIDIA", memory, cores));
            } else if (pool == 1) {
                resources = Map.of("nvidia.com/gpu", 1L);
            } else {
                resources = Map.of("nvidia.com/mig-3g.40gb", 1L);
            }
            Owner owner = new Owner("Job", "job-" + pods);
            if (pool == 0 && queued != null) {
                queued.admitted(uid, ns, "team-" + team, owner, t);
            }
            out.add(bound(new PodFact(uid, ns, "p-" + pods, rv(), WatchEventType.MODIFIED, t, t, t, node, "Running",
                    "default-scheduler", false, null, null, owner, Map.of(), resources, vgpus)));
            if (finished.isBefore(end)) {
                out.add(bound(new PodFact(uid, ns, "p-" + pods, rv(), WatchEventType.MODIFIED, finished, t, t, node,
                        "Succeeded", "default-scheduler", true, finished, null, owner, Map.of(), resources, vgpus)));
            }
            t = finished.plus(Duration.ofMinutes(random.nextInt(0, maxGapMinutes)));
        }
    }

    /** A pod HAMi placed carries what HAMi writes once its binding is done on the pod's node, as the ledger asks. */
    private static PodFact bound(PodFact pod) {
        return pod.vgpus().isEmpty() ? pod : pod.withHamiBinding("success", pod.nodeName());
    }

    private String rv() {
        return Long.toString(revision++);
    }

    private static String namespace(int tenant, int n) {
        return "t" + tenant + "-ns" + n;
    }
}
