package io.gpumeter.launcher.demo;

import io.fabric8.kubernetes.api.model.Pod;
import io.gpumeter.launcher.simulator.Plan;
import io.gpumeter.launcher.simulator.SimGpu;
import io.gpumeter.launcher.simulator.SimNode;
import io.gpumeter.launcher.simulator.SimPod;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Everything besides the Kubernetes history that a real fleet sends, made from a {@link Plan} and its seed, in the
 * formats of the public ingest endpoints; the same plan gives the same bodies, byte for byte. This is the scenario —
 * the last {@link #USAGE_SPAN} of the history, two inference services, the card the first shares with a noisy
 * neighbour ({@link DemoNeighbour}), the jitter episode — and each kind of signal has its own class: the cards' minutes
 * ({@link DemoCards}) and their scrapes ({@link DemoDcgm}), the services' requests, gauges and SLOs
 * ({@link DemoInference}), queues ({@link DemoQueues}), node logs ({@link DemoNodeLogs}), the hosts' pages
 * ({@link DemoHost}) and an out-of-memory under the neighbour's pressure ({@link DemoOom}).
 * <p>
 * The jitter episode: at {@link #neighbourAt()} a memory-bound benchmark pod ({@link #neighbour()}) is scheduled
 * onto the card of the first service's pod; from {@link #jitterStart()} to {@link #jitterEnd()} that service's TTFT
 * is {@value DemoInference#JITTER_TTFT_MS} ms, far above 2 × its {@value #CHAT_THRESHOLD_MS} ms objective
 * (slo-service's jitter rule), while the card's DRAM_ACTIVE stays above 0.85.
 */
public final class DemoSignals {

    /** How far back the usage scrapes, requests and gauges reach from the end of the history. */
    public static final Duration USAGE_SPAN = Duration.ofMinutes(150);
    public static final String CHAT_SERVICE = "acme-chat";
    public static final String SECOND_SERVICE = "globex-assist";
    public static final int CHAT_THRESHOLD_MS = 300;
    public static final int SECOND_THRESHOLD_MS = 500;
    static final String OVERRUN_TENANT = "acme";

    /** A body for one ingest endpoint. */
    public record Push(String service, String path, String contentType, String body) {
    }

    /** The inference service served by a pod. */
    public record InferenceService(String name, SimPod pod, int thresholdMs) {
    }

    private final Plan plan;
    private final Instant end;
    private final Instant from;
    private final DemoInference inference;
    private final DemoNodeLogs nodeLogs;
    private final DemoQueues queues;
    private final DemoNeighbour neighbour;
    private final DemoCards cards;
    private final DemoDcgm dcgm;
    /** Made when first asked for: the job's grant is sized from the cards' use, which reads the hosts' stories. */
    private DemoOom oom;
    private DemoHost host;

    public DemoSignals(Plan plan) {
        this.plan = plan;
        this.end = plan.end().truncatedTo(ChronoUnit.MINUTES);
        this.from = end.minus(USAGE_SPAN);
        // each part reads only what was made before it: the span, then the services' pods, then the shared card
        this.inference = new DemoInference(this);
        this.nodeLogs = new DemoNodeLogs(plan, end);
        this.queues = new DemoQueues(plan.seed(), plan.start(), end);
        this.neighbour = new DemoNeighbour(plan.seed(), neighbourAt(), sharedCard(), sharedNode(), sharedHostIp());
        this.cards = new DemoCards(this, neighbour);
        this.dcgm = new DemoDcgm(this, cards, neighbour, nodeLogs);
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

    /** The minutes of the usage span, each minute's start. */
    public List<Instant> minutes() {
        List<Instant> out = new ArrayList<>();
        for (Instant m = from; m.isBefore(end); m = m.plus(Duration.ofMinutes(1))) {
            out.add(m);
        }
        return out;
    }

    /** The inference services: the first always, the second when the history has a second steady pod. */
    public List<InferenceService> services() {
        return inference.services();
    }

    /** The card the first service and the noisy neighbour share. */
    public String sharedCard() {
        return inference.chatPod().grants().get(0).gpuUuid();
    }

    public String sharedNode() {
        return inference.chatPod().nodeName();
    }

    String sharedHostIp() {
        return plan.nodes().stream().filter(n -> n.name().equals(sharedNode())).map(SimNode::hostIp).findFirst()
                .orElse(null);
    }

    /** The tenant whose budget the demo sets just under its forecast. */
    public static String overrunTenant() {
        return OVERRUN_TENANT;
    }

    Plan plan() {
        return plan;
    }

    /** A draw in [0, 1) from the plan's seed, a key and a minute: the same plan, the same noise. */
    double noise(String key, Instant minute) {
        return new SplittableRandom(plan.seed() ^ key.hashCode() * 31L ^ minute.getEpochSecond()).nextDouble();
    }

    DemoCards cards() {
        return cards;
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

    /** What {@code gpu} did in {@code minute}: its units' work, the neighbour's and the embedding job's on top. */
    public CardMinute card(SimGpu gpu, Instant minute) {
        return cards.card(gpu, minute);
    }

    CardMinute cardWithout(SimGpu gpu, Instant minute) {
        return cards.cardWithout(gpu, minute);
    }

    /** dcgm-exporter's scrape of every node, once a minute; HAMi nodes also send their monitor's vGPU series. */
    public List<Push> usagePushes() {
        return dcgm.pushes();
    }

    public List<Push> latencyPushes() {
        return inference.latencyPushes();
    }

    public List<Push> engineGaugePushes() {
        return inference.engineGaugePushes();
    }

    public List<Push> sloPushes() {
        return inference.sloPushes();
    }

    /** Kueue's and Volcano's objects as watch events, for the collector's replay endpoint. */
    public String governanceNdjson() {
        return queues.ndjson();
    }

    public List<Push> kernelLogPushes() {
        return nodeLogs.kernelLogPushes();
    }

    public String oomEventNdjson() {
        return nodeLogs.oomEventNdjson();
    }

    /** The memory-bound benchmark of another tenant, for the API server the collector watches. */
    public Pod neighbour() {
        return neighbour.pod();
    }

    /** The neighbour's pod as a watch event, for the replay endpoint when the collector watches nothing. */
    public String neighbourNdjson() {
        return neighbour.ndjson();
    }

    /** kubelet's cAdvisor and node-exporter pages of every GPU node, once a minute. */
    public List<Push> hostPushes() {
        return new HostPages(this, host()).pushes();
    }

    public HostStories hostStories() {
        return HostStories.of(host());
    }

    /** Container logs: the embedding job's, with its CUDA out-of-memory. */
    public List<Push> containerLogPushes() {
        return List.of(oom().logPush());
    }

    /** The embedding job's pod, namespace/name. */
    public String oomPodKey() {
        return DemoOom.NAMESPACE + "/" + DemoOom.POD;
    }

    /** When the embedding job's CUDA allocation failed. */
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
}
