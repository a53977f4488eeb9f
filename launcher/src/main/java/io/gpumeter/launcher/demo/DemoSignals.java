package io.gpumeter.launcher.demo;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.gpumeter.launcher.simulator.GpuPool;
import io.gpumeter.launcher.simulator.Grant;
import io.gpumeter.launcher.simulator.MigInstance;
import io.gpumeter.launcher.simulator.Plan;
import io.gpumeter.launcher.simulator.Rfc3339;
import io.gpumeter.launcher.simulator.SimGpu;
import io.gpumeter.launcher.simulator.SimNode;
import io.gpumeter.launcher.simulator.SimPod;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * Everything besides the Kubernetes history that a real fleet sends, made from a {@link Plan} and its seed, in the
 * formats of the public ingest endpoints: dcgm-exporter and HAMi-monitor scrapes once a minute for the last
 * {@link #USAGE_SPAN}, the requests and engine gauges of two inference services with one jitter episode, Kueue and
 * Volcano queues with their waits, kernel logs with Xids (two Xid 79 on the node whose driver was upgraded, after the
 * upgrade), a kernel OOM, SLO definitions and budgets. The same plan
 * gives the same bodies, byte for byte.
 * <p>
 * The jitter episode: at {@link #neighbourAt()} a memory-bound benchmark pod ({@link #neighbour()}) is scheduled
 * onto the card of the first service's pod; from {@link #jitterStart()} to {@link #jitterEnd()} that service's TTFT
 * is {@value #JITTER_TTFT_MS} ms, far above 2 × its {@value #CHAT_THRESHOLD_MS} ms objective (slo-service's jitter
 * rule), while the card's DRAM_ACTIVE stays above 0.85.
 */
public final class DemoSignals {

    /** How far back the usage scrapes, requests and gauges reach from the end of the history. */
    public static final Duration USAGE_SPAN = Duration.ofMinutes(150);
    public static final String CHAT_SERVICE = "acme-chat";
    public static final String SECOND_SERVICE = "globex-assist";
    public static final int CHAT_THRESHOLD_MS = 300;
    public static final int SECOND_THRESHOLD_MS = 500;
    static final int JITTER_TTFT_MS = 950;
    static final int REQUESTS_PER_MINUTE = 12;
    static final String NEIGHBOUR_NAMESPACE = "umbrella-research";
    static final String OVERRUN_TENANT = "acme";
    /** Activity levels a unit is drawn into: idle allocations, moderate and busy work. */
    static final double IDLE = 0.02;
    static final double MODERATE = 0.35;
    static final double BUSY = 0.85;
    /** The share of the card the neighbour's SM work takes (it waits on memory), and the memory it fills. */
    static final double NEIGHBOUR_SHARE = 0.12;
    static final long NEIGHBOUR_MEMORY_MIB = 22000;
    static final double NEIGHBOUR_DRAM = 0.93;

    /** A body for one ingest endpoint. */
    public record Push(String service, String path, String contentType, String body) {
    }

    /** The inference service served by a pod. */
    public record InferenceService(String name, SimPod pod, int thresholdMs) {
    }

    private final Plan plan;
    private final Instant end;
    private final Instant from;
    private final SimPod chatPod;
    private final SimPod secondPod;
    private DemoOom oom;
    private DemoHost host;

    public DemoSignals(Plan plan) {
        this.plan = plan;
        this.end = plan.end().truncatedTo(java.time.temporal.ChronoUnit.MINUTES);
        this.from = end.minus(USAGE_SPAN);
        this.chatPod = steady(p -> p.pool() == GpuPool.HAMI && p.namespace().equals("acme-inference"))
                .orElseThrow(() -> new IllegalStateException("the history has no model server running at its end"));
        this.secondPod = steady(p -> p.namespace().equals("globex-llm") && p != chatPod)
                .or(() -> steady(p -> p != chatPod && p.pool() == GpuPool.HAMI))
                .or(() -> steady(p -> p != chatPod)).orElse(null);
    }

    public Instant usageFrom() {
        return from;
    }

    public Instant usageTo() {
        return end;
    }

    public Instant neighbourAt() {
        return end.minus(Duration.ofMinutes(30));
    }

    public Instant jitterStart() {
        return end.minus(Duration.ofMinutes(25));
    }

    public Instant jitterEnd() {
        return end.minus(Duration.ofMinutes(15));
    }

    /** The inference services: the first always, the second when the history has a second steady pod. */
    public List<InferenceService> services() {
        List<InferenceService> out = new ArrayList<>();
        out.add(new InferenceService(CHAT_SERVICE, chatPod, CHAT_THRESHOLD_MS));
        if (secondPod != null) {
            out.add(new InferenceService(SECOND_SERVICE, secondPod, SECOND_THRESHOLD_MS));
        }
        return out;
    }

    /** The card the first service and the noisy neighbour share. */
    public String sharedCard() {
        return chatPod.grants().get(0).gpuUuid();
    }

    public String sharedNode() {
        return chatPod.nodeName();
    }

    /** A pod held through the whole usage span, the earliest scheduled first. */
    private Optional<SimPod> steady(java.util.function.Predicate<SimPod> which) {
        return plan.pods().stream().filter(p -> !p.grants().isEmpty() && p.holdsAt(from) && p.holdsAt(end.minusSeconds(1)))
                .filter(which).min(Comparator.comparing(SimPod::scheduledAt).thenComparing(SimPod::uid));
    }

    // ---- the noisy neighbour -------------------------------------------------------------------------------

    /** A memory-bound benchmark of another tenant, scheduled by HAMi onto the first service's card. */
    public Pod neighbour() {
        String at = Rfc3339.format(neighbourAt());
        String card = sharedCard();
        return new PodBuilder()
                .withNewMetadata().withName("stream-bench-0").withNamespace(NEIGHBOUR_NAMESPACE)
                .withUid("demo-" + plan.seed() + "-stream-bench-0").withCreationTimestamp(at)
                .addToLabels("app", "stream-bench")
                .addToAnnotations("hami.io/vgpu-devices-allocated", card + ",NVIDIA,24000,40:;")
                .addToAnnotations("hami.io/vgpu-devices-to-allocate", ";")
                .addToAnnotations("hami.io/vgpu-node", sharedNode())
                .addToAnnotations("hami.io/bind-phase", "success")
                .addToAnnotations("hami.io/bind-time", String.valueOf(neighbourAt().getEpochSecond()))
                .addNewManagedField().withManager("kubelet").withOperation("Update").withApiVersion("v1")
                .withTime(at).endManagedField()
                .endMetadata()
                .withNewSpec().withSchedulerName("hami-scheduler").withNodeName(sharedNode()).withRestartPolicy("Never")
                .addNewContainer().withName("bench").withImage("nvcr.io/nvidia/cuda:12.6.2-runtime-ubuntu22.04")
                .withNewResources()
                .addToLimits("nvidia.com/gpu", new Quantity("1"))
                .addToLimits("nvidia.com/gpumem", new Quantity("24000"))
                .addToLimits("nvidia.com/gpucores", new Quantity("40"))
                .endResources().endContainer().endSpec()
                .withNewStatus().withPhase("Running").withHostIP(hostIp(sharedNode())).withStartTime(at)
                .addNewCondition().withType("PodScheduled").withStatus("True").withLastTransitionTime(at).endCondition()
                .addNewCondition().withType("Ready").withStatus("True").withLastTransitionTime(at).endCondition()
                .addNewContainerStatus().withName("bench").withReady(true).withRestartCount(0)
                .withImage("nvcr.io/nvidia/cuda:12.6.2-runtime-ubuntu22.04")
                .withNewState().withNewRunning().withStartedAt(at).endRunning().endState().endContainerStatus()
                .endStatus().build();
    }

    /** The neighbour's pod as a watch event, for the replay endpoint when the collector watches nothing. */
    public String neighbourNdjson() {
        Pod pod = neighbour();
        pod.getMetadata().setResourceVersion("1");
        return event("ADDED", io.fabric8.kubernetes.client.utils.Serialization.asJson(pod)) + "\n";
    }

    /** The out-of-memory under the neighbour's pressure, on the shared card. */
    DemoOom oom() {
        if (oom == null) {
            oom = new DemoOom(this);
        }
        return oom;
    }

    /** The hosts' pages and their three stories. */
    DemoHost host() {
        if (host == null) {
            host = new DemoHost(this);
        }
        return host;
    }

    /**
     * The hosts' three stories, for checking what the suite makes of them: the pod throttled at its CPU limit
     * (namespace/name) and when, the job stalled on I/O and when, the card held at its power cap and when.
     */
    public record HostStories(String cpuPod, String cpuService, String idleCpuPod, Instant cpuFrom, Instant cpuTo,
                              String ioPod, Instant ioFrom, Instant ioTo, String cappedCard, Instant capFrom,
                              Instant capTo) {
    }

    public HostStories hostStories() {
        DemoHost h = host();
        SimPod cpu = h.cpuPod();
        SimPod io = h.ioPod();
        SimPod idle = h.idleCpuPod();
        return new HostStories(cpu == null ? null : cpu.namespace() + "/" + cpu.name(),
                cpu == null ? null : SECOND_SERVICE, idle == null ? null : idle.namespace() + "/" + idle.name(),
                h.cpuFrom(), h.cpuTo(),
                io == null ? null : io.namespace() + "/" + io.name(), h.ioFrom(), h.ioTo(), h.cappedCard(), h.capFrom(),
                h.capTo());
    }

    /** kubelet's cAdvisor and node-exporter pages of every GPU node, once a minute. */
    public List<Push> hostPushes() {
        return host().pushes();
    }

    String sharedHostIp() {
        return hostIp(sharedNode());
    }

    private String hostIp(String node) {
        return plan.nodes().stream().filter(n -> n.name().equals(node)).map(SimNode::hostIp).findFirst().orElse(null);
    }

    private boolean neighbourHolds(String gpuUuid, Instant at) {
        return gpuUuid.equals(sharedCard()) && !at.isBefore(neighbourAt());
    }

    // ---- usage -------------------------------------------------------------------------------------------------

    /** How busy a unit's work is: a level drawn by its uid (the first service busy), then a little noise a minute. */
    double activity(SimPod pod, Instant minute) {
        double base;
        if (host().waitsOnHost(pod, minute)) {
            base = IDLE;
        } else if (pod == chatPod) {
            base = 0.60;
        } else {
            int roll = Math.floorMod(pod.uid().hashCode(), 10);
            base = roll < 3 ? IDLE : roll < 6 ? MODERATE : BUSY;
        }
        return round(base * (0.9 + 0.2 * noise(pod.uid(), minute)));
    }

    /** The share of the whole card a unit's work takes: its activity times its cores (10 % when it reserved none). */
    double cardShare(SimPod pod, Grant grant, Instant minute) {
        double cores = grant.migProfile() != null ? grant.migProfile().slices() / 7.0
                : grant.cores() >= 100 ? 1.0 : grant.cores() == 0 ? 0.1 : grant.cores() / 100.0;
        return activity(pod, minute) * cores;
    }

    private double noise(String key, Instant minute) {
        return new SplittableRandom(plan.seed() ^ key.hashCode() * 31L ^ minute.getEpochSecond()).nextDouble();
    }

    private static double round(double v) {
        return Math.round(v * 10000) / 10000.0;
    }

    /** The minutes of the usage span, each minute's start. */
    public List<Instant> minutes() {
        List<Instant> out = new ArrayList<>();
        for (Instant m = from; m.isBefore(end); m = m.plus(Duration.ofMinutes(1))) {
            out.add(m);
        }
        return out;
    }

    /** What a card did in one minute, read at its middle. */
    public record CardMinute(double sm, double dram, double fbUsedMib, List<Holder> holders) {
    }

    /** A unit on a card at a minute, with the share of the card its work took. */
    public record Holder(SimPod pod, Grant grant, double share) {
    }

    /** The framebuffer a unit's work fills: little when it idles, most of what it reserved otherwise. */
    long memoryUsedMib(SimPod pod, Grant grant, Instant minute) {
        return Math.round(grant.memoryMib() * (activity(pod, minute) <= IDLE * 1.1 ? 0.15 : 0.8));
    }

    /**
     * The card's activity in {@code minute}: the sum of its units' shares, capped at 1; the neighbour's and the
     * embedding job's on top.
     */
    public CardMinute card(SimGpu gpu, Instant minute) {
        CardMinute c = cardWithout(gpu, minute);
        if (!oom().runs(gpu, minute)) {
            return c;
        }
        return new CardMinute(round(Math.min(1, c.sm() + DemoOom.SM_SHARE)), c.dram(),
                Math.min(gpu.memoryMib(), c.fbUsedMib() + oom().usedMib(minute)), c.holders());
    }

    /** The card's minute without the embedding job that runs out of memory. */
    CardMinute cardWithout(SimGpu gpu, Instant minute) {
        Instant mid = minute.plusSeconds(30);
        List<Holder> holders = new ArrayList<>();
        double sm = 0;
        double dram = 0;
        double fb = 0;
        for (SimPod pod : plan.occupants(gpu.uuid(), mid)) {
            for (Grant g : pod.grants()) {
                if (g.gpuUuid().equals(gpu.uuid())) {
                    double share = cardShare(pod, g, minute);
                    holders.add(new Holder(pod, g, share));
                    sm += share;
                    dram += share * 0.5;
                    fb += memoryUsedMib(pod, g, minute);
                }
            }
        }
        if (neighbourHolds(gpu.uuid(), mid)) {
            sm += NEIGHBOUR_SHARE;
            dram = NEIGHBOUR_DRAM;
            fb += NEIGHBOUR_MEMORY_MIB;
        }
        return new CardMinute(round(Math.min(1, sm)), round(Math.min(1, dram)), Math.min(gpu.memoryMib(), Math.round(fb)),
                holders);
    }

    /** dcgm-exporter's scrape of every node, once a minute; HAMi nodes also send their monitor's vGPU series. */
    public List<Push> usagePushes() {
        List<Push> out = new ArrayList<>();
        for (Instant minute : minutes()) {
            long ts = minute.plusSeconds(30).toEpochMilli();
            for (SimNode node : plan.nodes()) {
                StringBuilder dcgm = new StringBuilder();
                StringBuilder hami = new StringBuilder();
                Map<String, StringBuilder> metrics = new LinkedHashMap<>();
                for (String name : List.of("DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_PROF_GR_ENGINE_ACTIVE", "DCGM_FI_PROF_SM_ACTIVE",
                        "DCGM_FI_PROF_DRAM_ACTIVE", "DCGM_FI_DEV_FB_USED", "DCGM_FI_DEV_FB_FREE", "DCGM_FI_DEV_POWER_USAGE", "DCGM_FI_DEV_CLOCK_THROTTLE_REASONS", "DCGM_FI_DEV_XID_ERRORS")) {
                    metrics.put(name, new StringBuilder("# TYPE ").append(name).append(" gauge\n"));
                }
                for (SimGpu gpu : node.gpus()) {
                    CardMinute c = card(gpu, minute);
                    String base = "gpu=\"" + gpu.index() + "\",UUID=\"" + gpu.uuid() + "\",device=\"nvidia" + gpu.index()
                            + "\",modelName=\"" + gpu.model() + "\",Hostname=\"" + node.name() + "\"";
                    String labels = base;
                    if (node.pool() == GpuPool.WHOLE_CARD && c.holders().size() == 1) {
                        SimPod p = c.holders().get(0).pod();
                        labels = base + ",namespace=\"" + p.namespace() + "\",pod=\"" + p.name() + "\"";
                    }
                    double util = c.sm() == 0 ? 0 : Math.min(100, Math.round(c.sm() * 100 + 8));
                    line(metrics, "DCGM_FI_DEV_GPU_UTIL", labels, fmt(util), ts);
                    line(metrics, "DCGM_FI_PROF_GR_ENGINE_ACTIVE", labels, fmt(Math.min(1, round(c.sm() * 1.05))), ts);
                    line(metrics, "DCGM_FI_PROF_SM_ACTIVE", labels, fmt(c.sm()), ts);
                    line(metrics, "DCGM_FI_PROF_DRAM_ACTIVE", labels, fmt(c.dram()), ts);
                    line(metrics, "DCGM_FI_DEV_FB_USED", labels, fmt(c.fbUsedMib()), ts);
                    line(metrics, "DCGM_FI_DEV_FB_FREE", labels, fmt(gpu.memoryMib() - c.fbUsedMib()), ts);
                    boolean capped = host().powerCapped(gpu.uuid(), minute);
                    line(metrics, "DCGM_FI_DEV_POWER_USAGE", labels, fmt(capped ? 250 : round(70 + 330 * c.sm())), ts);
                    line(metrics, "DCGM_FI_DEV_CLOCK_THROTTLE_REASONS", labels,
                            String.valueOf(host().clockEvents(gpu.uuid(), c.sm(), minute)), ts);
                    line(metrics, "DCGM_FI_DEV_XID_ERRORS", base, xidAt(gpu, minute), ts);
                    if (node.pool() == GpuPool.MIG) {
                        for (Holder h : c.holders()) {
                            MigInstance instance = instance(node, h.grant());
                            if (instance == null) {
                                continue;
                            }
                            String mig = base + ",GPU_I_PROFILE=\"" + instance.profile().profile() + "\",GPU_I_ID=\""
                                    + instanceId(instance) + "\",namespace=\"" + h.pod().namespace() + "\",pod=\""
                                    + h.pod().name() + "\"";
                            double act = activity(h.pod(), minute);
                            line(metrics, "DCGM_FI_PROF_GR_ENGINE_ACTIVE", mig, fmt(act), ts);
                            line(metrics, "DCGM_FI_PROF_SM_ACTIVE", mig, fmt(act), ts);
                            line(metrics, "DCGM_FI_DEV_FB_USED", mig, fmt(Math.round(h.grant().memoryMib() * 0.7)), ts);
                        }
                    }
                    if (node.pool() == GpuPool.HAMI) {
                        for (Holder h : c.holders()) {
                            String vgpu = "deviceuuid=\"" + gpu.uuid() + "\",podnamespace=\"" + h.pod().namespace()
                                    + "\",podname=\"" + h.pod().name() + "\",ctrname=\"main\",vdeviceid=\"0\"";
                            vgpu(hami, vgpu, h.share(), memoryUsedMib(h.pod(), h.grant(), minute), h.grant().memoryMib(), ts);
                        }
                        if (neighbourHolds(gpu.uuid(), minute.plusSeconds(30))) {
                            Pod n = neighbour();
                            vgpu(hami, "deviceuuid=\"" + gpu.uuid() + "\",podnamespace=\"" + n.getMetadata().getNamespace()
                                    + "\",podname=\"" + n.getMetadata().getName() + "\",ctrname=\"bench\",vdeviceid=\"0\"",
                                    NEIGHBOUR_SHARE, NEIGHBOUR_MEMORY_MIB, 24000, ts);
                        }
                        if (oom().runs(gpu, minute)) {
                            vgpu(hami, oom().hamiLabels(), DemoOom.SM_SHARE, oom().usedMib(minute), oom().grantMib(), ts);
                        }
                    }
                }
                metrics.values().forEach(dcgm::append);
                out.add(new Push("collector", "/api/v1/ingest/dcgm?node=" + node.name(), "text/plain", dcgm.toString()));
                if (hami.length() > 0) {
                    out.add(new Push("collector", "/api/v1/ingest/hami-monitor?node=" + node.name(), "text/plain",
                            hami.toString()));
                }
            }
        }
        return out;
    }

    /** The last Xid a card reported by {@code minute}, as dcgm-exporter shows it: 0 for none. */
    private String xidAt(SimGpu gpu, Instant minute) {
        SimNode node = plan.nodes().stream().filter(n -> n.name().equals(gpu.nodeName())).findFirst().orElseThrow();
        if (node.pool() == GpuPool.MIG && gpu.index() == 5 && !minute.isBefore(xid48At())) {
            return "48";
        }
        return "0";
    }

    Instant xid48At() {
        return end.minus(Duration.ofMinutes(15));
    }

    private static void vgpu(StringBuilder hami, String labels, double share, long usedMib, long limitMib, long ts) {
        hami.append("hami_container_device_utilization_ratio{").append(labels).append("} ").append(fmt(round(share * 100)))
                .append(' ').append(ts).append('\n');
        hami.append("hami_vgpu_memory_used_bytes{").append(labels).append("} ").append(usedMib * 1024 * 1024).append(' ')
                .append(ts).append('\n');
        hami.append("hami_vgpu_memory_limit_bytes{").append(labels).append("} ").append(limitMib * 1024 * 1024).append(' ')
                .append(ts).append('\n');
    }

    private static MigInstance instance(SimNode node, Grant grant) {
        return node.migInstances().stream().filter(i -> i.uuid().equals(grant.migUuid())).findFirst().orElse(null);
    }

    /** The GPU instance id the driver gives an instance: its slot on the card, from 1. */
    static int instanceId(MigInstance instance) {
        return instance.slot() + 1;
    }

    private static void line(Map<String, StringBuilder> metrics, String name, String labels, String value, long ts) {
        metrics.get(name).append(name).append('{').append(labels).append("} ").append(value).append(' ').append(ts)
                .append('\n');
    }

    private static String fmt(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
    }

    // ---- inference: requests, engine gauges, SLOs -------------------------------------------------------------------

    /** The TTFT of one request of a service; the first service's is far slower during the jitter episode. */
    double ttftMs(InferenceService service, Instant minute, int request) {
        double n = noise(service.name() + "/" + request, minute);
        boolean jitter = service.name().equals(CHAT_SERVICE) && !minute.isBefore(jitterStart()) && minute.isBefore(jitterEnd());
        if (jitter) {
            return JITTER_TTFT_MS + Math.round(n * 150);
        }
        if (host().slowsService(service.pod(), minute)) {
            return Math.round(service.thresholdMs() * (2.6 + 0.4 * n));
        }
        return Math.round(service.thresholdMs() * (0.35 + 0.3 * n));
    }

    /** The request records of both services, one NDJSON body per service. */
    public List<Push> latencyPushes() {
        List<Push> out = new ArrayList<>();
        for (InferenceService s : services()) {
            StringBuilder body = new StringBuilder();
            for (Instant minute : minutes()) {
                for (int r = 0; r < REQUESTS_PER_MINUTE; r++) {
                    double ttft = ttftMs(s, minute, r);
                    double itl = Math.round(18 + 14 * noise(s.name() + "/itl/" + r, minute));
                    body.append("{\"service\":\"").append(s.name()).append("\",\"namespace\":\"").append(s.pod().namespace())
                            .append("\",\"pod\":\"").append(s.pod().name()).append("\",\"ts\":\"")
                            .append(Rfc3339.format(minute.plusSeconds(r * 60L / REQUESTS_PER_MINUTE + 1)))
                            .append("\",\"ttftMs\":").append(fmt(ttft)).append(",\"itlMs\":").append(fmt(itl))
                            .append(",\"e2eMs\":").append(fmt(ttft + 200 * itl)).append(",\"ok\":true}\n");
                }
            }
            out.add(new Push("slo", "/api/v1/ingest/latency", "application/x-ndjson", body.toString()));
        }
        return out;
    }

    /** vLLM's KV-cache usage and prefix-cache hit rate of each service's pod, once a minute. */
    public List<Push> engineGaugePushes() {
        List<Push> out = new ArrayList<>();
        for (InferenceService s : services()) {
            StringBuilder body = new StringBuilder();
            for (Instant minute : minutes()) {
                double kv = round(0.35 + 0.25 * noise(s.name() + "/kv", minute));
                double prefix = round(0.30 + 0.3 * noise(s.name() + "/prefix", minute));
                body.append("{\"service\":\"").append(s.name()).append("\",\"namespace\":\"").append(s.pod().namespace())
                        .append("\",\"pod\":\"").append(s.pod().name()).append("\",\"ts\":\"")
                        .append(Rfc3339.format(minute.plusSeconds(30))).append("\",\"kvCacheUsage\":").append(fmt(kv))
                        .append(",\"prefixCacheHitRate\":").append(fmt(prefix)).append("}\n");
            }
            out.add(new Push("slo", "/api/v1/ingest/engine-gauges", "application/x-ndjson", body.toString()));
        }
        return out;
    }

    /**
     * A TTFT SLO per service, in its pod's namespace (a service is known by its namespace and name): p99 under its
     * threshold in 99 % of minutes over 30 days.
     */
    public List<Push> sloPushes() {
        List<Push> out = new ArrayList<>();
        for (InferenceService s : services()) {
            out.add(new Push("slo", "/api/v1/slos", "application/json", "{\"name\":\"" + s.name() + "-ttft\","
                    + "\"selector\":{\"service\":\"" + s.name() + "\",\"namespace\":\"" + s.pod().namespace() + "\"},"
                    + "\"sli\":\"TTFT\",\"objective\":{\"percentile\":99,"
                    + "\"thresholdMs\":" + s.thresholdMs() + ",\"per\":\"MINUTE\"},\"target\":0.99,\"window\":\"P30D\"}"));
        }
        return out;
    }

    // ---- queues -----------------------------------------------------------------------------------------------

    /** Kueue's and Volcano's objects as watch events, for the collector's replay endpoint. */
    public String governanceNdjson() {
        List<String> lines = new ArrayList<>();
        Instant start = plan.start();
        lines.add(event("ADDED", "{\"apiVersion\":\"kueue.x-k8s.io/v1beta1\",\"kind\":\"ResourceFlavor\",\"metadata\":{"
                + "\"name\":\"a100-80g\",\"uid\":\"demo-rf-a100\",\"resourceVersion\":\"1\",\"creationTimestamp\":\""
                + Rfc3339.format(start) + "\"},\"spec\":{\"nodeLabels\":{\"nvidia.com/gpu.product\":\"NVIDIA-A100-SXM4-80GB\"}}}"));
        lines.add(event("ADDED", clusterQueue("cq-training", 8, start)));
        lines.add(event("ADDED", clusterQueue("cq-batch", 4, start)));
        lines.add(event("ADDED", localQueue("acme-training", "training", "cq-training", start)));
        lines.add(event("ADDED", localQueue("umbrella-research", "training", "cq-training", start)));
        lines.add(event("ADDED", localQueue("initech-batch", "batch", "cq-batch", start)));
        SplittableRandom random = new SplittableRandom(plan.seed() * 7919);
        String[][] queues = {{"acme-training", "training", "cq-training"}, {"umbrella-research", "training", "cq-training"},
                {"initech-batch", "batch", "cq-batch"}};
        Instant first = end.minus(Duration.ofHours(36));
        for (int i = 0; i < 36; i++) {
            String[] q = queues[i % queues.length];
            Instant created = first.plus(Duration.ofMinutes(55L * i + random.nextInt(0, 20)));
            long wait = waitSeconds(random, i);
            lines.addAll(workload(q[0], q[1], q[2], "train-" + i, created, wait, 1 + i % 4));
        }
        // more than the ClusterQueue's whole quota: Kueue holds it back, and it is still waiting
        Instant held = end.minus(Duration.ofMinutes(40));
        lines.add(event("ADDED", workloadObject("acme-training", "training", "train-xl", held, 16, "", "")));
        lines.add(event("MODIFIED", workloadObject("acme-training", "training", "train-xl", held, 16, "",
                "{\"type\":\"QuotaReserved\",\"status\":\"False\",\"reason\":\"Pending\",\"message\":\"couldn't assign "
                        + "flavors to pod set main: insufficient quota for nvidia.com/gpu in flavor a100-80g, request > "
                        + "maximum capacity (16 > 8)\",\"lastTransitionTime\":\"" + Rfc3339.format(held.plusSeconds(1)) + "\"}")));
        // Volcano: one queue, gangs that waited for their members
        lines.add(event("ADDED", "{\"apiVersion\":\"scheduling.volcano.sh/v1beta1\",\"kind\":\"Queue\",\"metadata\":{"
                + "\"name\":\"research\",\"uid\":\"demo-vq-research\",\"resourceVersion\":\"1\",\"creationTimestamp\":\""
                + Rfc3339.format(start) + "\"},\"spec\":{\"weight\":1,\"reclaimable\":true,\"capability\":{\"nvidia.com/gpu\":\"8\"}},"
                + "\"status\":{\"state\":\"Open\"}}"));
        for (int i = 0; i < 12; i++) {
            Instant created = first.plus(Duration.ofMinutes(170L * i + random.nextInt(0, 30)));
            long wait = waitSeconds(random, i + 100);
            lines.add(event("ADDED", podGroup("gang-" + i, created, "Pending", null)));
            lines.add(event("MODIFIED", podGroup("gang-" + i, created, "Running", created.plusSeconds(wait))));
        }
        return String.join("\n", lines) + "\n";
    }

    /** Mostly short waits, a few long ones: what makes p95 stand away from p50. */
    private static long waitSeconds(SplittableRandom random, int i) {
        return i % 9 == 4 ? random.nextLong(1800, 5400) : random.nextLong(5, 600);
    }

    private String clusterQueue(String name, int gpus, Instant at) {
        return "{\"apiVersion\":\"kueue.x-k8s.io/v1beta1\",\"kind\":\"ClusterQueue\",\"metadata\":{\"name\":\"" + name
                + "\",\"uid\":\"demo-" + name + "\",\"resourceVersion\":\"1\",\"creationTimestamp\":\"" + Rfc3339.format(at)
                + "\"},\"spec\":{\"cohort\":\"gpu\",\"namespaceSelector\":{},\"resourceGroups\":[{\"coveredResources\":"
                + "[\"nvidia.com/gpu\"],\"flavors\":[{\"name\":\"a100-80g\",\"resources\":[{\"name\":\"nvidia.com/gpu\","
                + "\"nominalQuota\":" + gpus + "}]}]}]}}";
    }

    private String localQueue(String namespace, String name, String clusterQueue, Instant at) {
        return "{\"apiVersion\":\"kueue.x-k8s.io/v1beta1\",\"kind\":\"LocalQueue\",\"metadata\":{\"name\":\"" + name
                + "\",\"namespace\":\"" + namespace + "\",\"uid\":\"demo-lq-" + namespace + "-" + name
                + "\",\"resourceVersion\":\"1\",\"creationTimestamp\":\"" + Rfc3339.format(at) + "\"},\"spec\":{"
                + "\"clusterQueue\":\"" + clusterQueue + "\"}}";
    }

    private List<String> workload(String namespace, String queue, String clusterQueue, String name, Instant created,
                                  long wait, int gpus) {
        Instant admitted = created.plusSeconds(wait);
        String refused = "{\"type\":\"QuotaReserved\",\"status\":\"False\",\"reason\":\"Pending\",\"message\":\"couldn't "
                + "assign flavors to pod set main: insufficient unused quota for nvidia.com/gpu in flavor a100-80g, " + gpus
                + " more needed\",\"lastTransitionTime\":\"" + Rfc3339.format(created.plusSeconds(1)) + "\"}";
        String admission = "\"admission\":{\"clusterQueue\":\"" + clusterQueue + "\",\"podSetAssignments\":[{\"name\":\"main\","
                + "\"count\":1,\"flavors\":{\"nvidia.com/gpu\":\"a100-80g\"},\"resourceUsage\":{\"nvidia.com/gpu\":\"" + gpus
                + "\"}}]},";
        String at = Rfc3339.format(admitted);
        String admittedConditions = "{\"type\":\"QuotaReserved\",\"status\":\"True\",\"reason\":\"QuotaReserved\",\"message\":"
                + "\"Quota reserved in ClusterQueue " + clusterQueue + "\",\"lastTransitionTime\":\"" + at + "\"},"
                + "{\"type\":\"Admitted\",\"status\":\"True\",\"reason\":\"Admitted\",\"message\":\"The workload is admitted\","
                + "\"lastTransitionTime\":\"" + at + "\"}";
        return List.of(event("ADDED", workloadObject(namespace, queue, name, created, gpus, "", "")),
                event("MODIFIED", workloadObject(namespace, queue, name, created, gpus, "", refused)),
                event("MODIFIED", workloadObject(namespace, queue, name, created, gpus, admission, admittedConditions)));
    }

    private int resourceVersion = 100;

    private String workloadObject(String namespace, String queue, String name, Instant created, int gpus, String admission,
                                  String conditions) {
        return "{\"apiVersion\":\"kueue.x-k8s.io/v1beta1\",\"kind\":\"Workload\",\"metadata\":{\"name\":\"job-" + name
                + "\",\"namespace\":\"" + namespace + "\",\"uid\":\"demo-wl-" + namespace + "-" + name + "\",\"resourceVersion\":\""
                + (++resourceVersion) + "\",\"creationTimestamp\":\"" + Rfc3339.format(created) + "\"},\"spec\":{\"queueName\":\""
                + queue + "\",\"podSets\":[{\"name\":\"main\",\"count\":1,\"template\":{\"spec\":{\"containers\":[{\"name\":"
                + "\"trainer\",\"resources\":{\"requests\":{\"nvidia.com/gpu\":\"" + gpus + "\"}}}]}}}]},\"status\":{"
                + admission + "\"conditions\":[" + conditions + "]}}";
    }

    private String podGroup(String name, Instant created, String phase, Instant scheduled) {
        String conditions = scheduled == null ? "" : "\"conditions\":[{\"type\":\"Scheduled\",\"status\":\"True\","
                + "\"reason\":\"tasks in gang are ready to be scheduled\",\"lastTransitionTime\":\""
                + Rfc3339.format(scheduled) + "\"}],";
        return "{\"apiVersion\":\"scheduling.volcano.sh/v1beta1\",\"kind\":\"PodGroup\",\"metadata\":{\"name\":\"" + name
                + "\",\"namespace\":\"umbrella-research\",\"uid\":\"demo-pg-" + name + "\",\"resourceVersion\":\""
                + (++resourceVersion) + "\",\"creationTimestamp\":\"" + Rfc3339.format(created) + "\"},\"spec\":{"
                + "\"queue\":\"research\",\"minMember\":4},\"status\":{" + conditions + "\"phase\":\"" + phase + "\""
                + (scheduled == null ? "" : ",\"running\":4") + "}}";
    }

    private static String event(String type, String object) {
        return "{\"type\":\"" + type + "\",\"object\":" + object + "}";
    }

    // ---- failures ---------------------------------------------------------------------------------------------

    private static final DateTimeFormatter KMSG = DateTimeFormatter.ofPattern("EEE MMM ppd HH:mm:ss yyyy", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    /** The card a kernel log line names, by a PCI address made from its index. */
    static String pciBus(SimGpu gpu) {
        return String.format(Locale.ROOT, "0000:%02x:00", 0x18 + 0x10 * gpu.index());
    }

    /**
     * Kernel logs: on the node whose driver was upgraded two days before the end (the whole-card node), a card falls
     * off the bus twice after the upgrade — card 6 27 hours before the end, back 9 minutes later, and card 3 95
     * minutes before the end, back 12 minutes later; on the MIG node, card 5 reports a double-bit ECC error (Xid 48) a
     * quarter of an hour before the end.
     */
    public List<Push> kernelLogPushes() {
        List<Push> out = new ArrayList<>();
        String upgraded = plan.stack().upgrade().node();
        for (SimNode node : plan.nodes()) {
            StringBuilder log = new StringBuilder();
            if (node.name().equals(upgraded)) {
                fallsOffTheBus(log, node.gpus().get(6), xid79s().get(0), Duration.ofMinutes(9));
                fallsOffTheBus(log, node.gpus().get(3), xid79s().get(1), Duration.ofMinutes(12));
            } else if (node.pool() == GpuPool.MIG) {
                SimGpu gpu = node.gpus().get(5);
                Instant at = xid48At();
                log.append('[').append(KMSG.format(at.minus(Duration.ofHours(2)))).append("] NVRM: GPU at PCI:")
                        .append(pciBus(gpu)).append(": ").append(gpu.uuid()).append('\n');
                log.append('[').append(KMSG.format(at)).append("] NVRM: Xid (PCI:").append(pciBus(gpu))
                        .append("): 48, pid=0, An uncorrectable double bit error (DBE) has been detected on GPU in the "
                                + "framebuffer at partition 6, subpartition 0.\n");
            }
            if (log.length() > 0) {
                out.add(new Push("collector", "/api/v1/ingest/kmsg?node=" + node.name(), "text/plain", log.toString()));
            }
        }
        return out;
    }

    /** The Xid 79s of the upgraded node, in order: both after its driver upgrade. */
    public List<Instant> xid79s() {
        return List.of(end.minus(Duration.ofHours(27)), end.minus(Duration.ofMinutes(95)));
    }

    /** An Xid 79 on {@code gpu} at {@code at}, and the driver finding the card again {@code back} later. */
    private static void fallsOffTheBus(StringBuilder log, SimGpu gpu, Instant at, Duration back) {
        log.append('[').append(KMSG.format(at)).append("] NVRM: Xid (PCI:").append(pciBus(gpu))
                .append("): 79, pid=0, GPU has fallen off the bus.\n");
        log.append('[').append(KMSG.format(at.plus(back))).append("] NVRM: GPU at PCI:").append(pciBus(gpu))
                .append(": ").append(gpu.uuid()).append('\n');
    }

    /** Container logs: the embedding job's, with its CUDA out-of-memory. */
    public List<Push> containerLogPushes() {
        return List.of(oom().logPush());
    }

    /** The embedding job's pod, namespace/name, and when its CUDA allocation failed. */
    public String oomPodKey() {
        return DemoOom.NAMESPACE + "/" + DemoOom.POD;
    }

    public Instant oomAt() {
        return oom().oomAt();
    }

    /** The embedding job's pod, for the API server the collector watches. */
    public Pod oomPod() {
        return oom().pod();
    }

    /** The embedding job's pod as a watch event, for the replay endpoint. */
    public String oomPodNdjson() {
        return oom().ndjson();
    }

    /** node-problem-detector's report of a kernel OOM kill on the first HAMi node, ten minutes before the end. */
    public String oomEventNdjson() {
        SimNode node = plan.nodes().stream().filter(n -> n.pool() == GpuPool.HAMI).findFirst().orElseThrow();
        String at = Rfc3339.format(end.minus(Duration.ofMinutes(10)));
        return event("ADDED", "{\"apiVersion\":\"v1\",\"kind\":\"Event\",\"metadata\":{\"name\":\"" + node.name()
                + ".oom\",\"namespace\":\"default\",\"uid\":\"demo-ev-oom-" + node.name() + "\",\"resourceVersion\":\"1\","
                + "\"creationTimestamp\":\"" + at + "\"},\"involvedObject\":{\"kind\":\"Node\",\"name\":\"" + node.name()
                + "\",\"uid\":\"" + node.uid() + "\"},\"reason\":\"OOMKilling\",\"message\":\"Killed process 48213 (python) "
                + "total-vm:91234560kB, anon-rss:65011712kB, file-rss:0kB, shmem-rss:0kB, UID:1000 pgtables:130000kB "
                + "oom_score_adj:999\",\"source\":{\"component\":\"kernel-monitor\",\"host\":\"" + node.name() + "\"},"
                + "\"firstTimestamp\":\"" + at + "\",\"lastTimestamp\":\"" + at + "\",\"count\":1,\"type\":\"Warning\"}") + "\n";
    }

    // ---- budgets ----------------------------------------------------------------------------------------------

    /** The tenant whose budget the demo sets just under its forecast. */
    public static String overrunTenant() {
        return OVERRUN_TENANT;
    }

    Plan plan() {
        return plan;
    }
}
