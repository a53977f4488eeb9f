package io.gpumeter.slo.domain;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Where an SLO's minutes ran: each selected pod-minute placed on the cards its pod held and under the queue its pod
 * went through, so the cards, nodes and queues the missed minutes ran on stand out. A service-minute is bad when any
 * of its events is bad; every pod that served it then has a bad pod-minute, on every card it held and under its
 * queue. Each pod-minute's own events (the pod's minute judged as the SLO judges a service's) tell which of those
 * cards and queues actually served the slow or failed requests.
 */
public final class AttainmentBreakdown {

    /** A card as the ledger names it. */
    public record Card(String gpuUuid, String node) {
    }

    /** A pod ("namespace/pod") in a minute: the key placements are looked up by. */
    public record PodAt(String podKey, Instant minute) {
    }

    /**
     * One card's share: the selected pods that ran on it, their pod-minutes, those in bad service-minutes, and the
     * pods' own events there.
     */
    public record GpuShare(String gpuUuid, String node, List<String> pods, long podMinutes, long badPodMinutes,
                           long events, long badEvents) {
    }

    /** One node's share; a pod-minute on two cards of the node counts once. */
    public record NodeShare(String node, long podMinutes, long badPodMinutes, long events, long badEvents) {
    }

    /**
     * The queue a pod went through, as the breakdown groups pods: its Kueue ClusterQueue if the ledger knows it,
     * else its Volcano queue, else its LocalQueue ({@code namespace/name}, when the ClusterQueue behind it is not
     * known), else none; {@code unknown} when the ledger holds no scheduling record of the pod.
     *
     * @param kind {@value #CLUSTER_QUEUE}, {@value #VOLCANO_QUEUE}, {@value #LOCAL_QUEUE}, {@value #NONE} or
     *             {@value #UNKNOWN}
     * @param name the queue's name; "none" or "unknown" for those kinds
     */
    public record Queue(String kind, String name) {

        public static final String CLUSTER_QUEUE = "clusterQueue";
        public static final String VOLCANO_QUEUE = "volcanoQueue";
        public static final String LOCAL_QUEUE = "localQueue";
        public static final String NONE = "none";
        public static final String UNKNOWN = "unknown";

        /** A pod that went through no queue. */
        public static final Queue NO_QUEUE = new Queue(NONE, NONE);
        /** A pod the ledger holds no scheduling record of. */
        public static final Queue NOT_KNOWN = new Queue(UNKNOWN, UNKNOWN);

        /** The queue to group a pod under, from what the ledger says it went through (any argument may be null). */
        public static Queue of(String namespace, String clusterQueue, String localQueue, String volcanoQueue) {
            if (clusterQueue != null) {
                return new Queue(CLUSTER_QUEUE, clusterQueue);
            }
            if (volcanoQueue != null) {
                return new Queue(VOLCANO_QUEUE, volcanoQueue);
            }
            return localQueue == null ? NO_QUEUE : new Queue(LOCAL_QUEUE, namespace + "/" + localQueue);
        }
    }

    /**
     * One queue's share: the selected pods that went through it and, as for a card, their pod-minutes, those in bad
     * service-minutes and the pods' own events. Every pod-minute counts under exactly one queue.
     */
    public record QueueShare(String queue, String kind, List<String> pods, long podMinutes, long badPodMinutes,
                             long events, long badEvents) {
    }

    /**
     * @param minutes            service-minutes with events, {@code badMinutes} of them bad
     * @param unplacedPodMinutes pod-minutes whose pod held no card the ledger knows of at the time
     */
    public record Result(long minutes, long badMinutes, long events, long badEvents, long podMinutes,
                         long badPodMinutes, long unplacedPodMinutes, long unplacedBadPodMinutes, List<GpuShare> byGpu,
                         List<NodeShare> byNode, List<QueueShare> byQueue) {
    }

    private static final Comparator<Card> BY_CARD = Comparator.comparing(Card::gpuUuid)
            .thenComparing(c -> Objects.requireNonNullElse(c.node(), ""));
    private static final Comparator<Queue> BY_QUEUE = Comparator.comparing(Queue::kind).thenComparing(Queue::name);

    private AttainmentBreakdown() {
    }

    /**
     * @param placements the cards each pod held during each of its minutes; a missing or empty entry is unplaced
     * @param queues     the queue each pod ("namespace/pod") went through; a pod missing here is
     *                   {@link Queue#NOT_KNOWN}
     */
    public static Result compute(SloDefinition slo, List<PodMinute> pods, Map<PodAt, List<Card>> placements,
                                 Map<String, Queue> queues) {
        Tally whole = new Tally();
        Tally unplaced = new Tally();
        Map<Card, Tally> byGpu = new TreeMap<>(BY_CARD);
        Map<String, Tally> byNode = new TreeMap<>();
        Map<Queue, Tally> byQueue = new TreeMap<>(BY_QUEUE);
        long[] minutes = new long[2];
        SloMinutes.forEachServiceMinute(slo, pods, true, m -> {
            minutes[0]++;
            minutes[1] += m.bad() ? 1 : 0;
            whole.events += m.events().total();
            whole.badEvents += m.events().total() - m.events().good();
            for (SloMinutes.PodEvents p : m.pods()) {
                whole.podMinutes++;
                whole.badPodMinutes += m.bad() ? 1 : 0;
                byQueue.computeIfAbsent(queues.getOrDefault(p.pod().podKey(), Queue.NOT_KNOWN), q -> new Tally())
                        .add(p, m.bad());
                Set<Card> cards = new LinkedHashSet<>(placements.getOrDefault(
                        new PodAt(p.pod().podKey(), m.minute()), List.of()));
                if (cards.isEmpty()) {
                    unplaced.add(p, m.bad());
                    continue;
                }
                Set<String> nodes = new TreeSet<>();
                for (Card card : cards) {
                    byGpu.computeIfAbsent(card, c -> new Tally()).add(p, m.bad());
                    nodes.add(Objects.requireNonNullElse(card.node(), ""));
                }
                nodes.forEach(n -> byNode.computeIfAbsent(n, k -> new Tally()).add(p, m.bad()));
            }
        });
        List<GpuShare> gpus = new ArrayList<>();
        byGpu.forEach((card, t) -> gpus.add(new GpuShare(card.gpuUuid(), card.node(), List.copyOf(t.pods),
                t.podMinutes, t.badPodMinutes, t.events, t.badEvents)));
        gpus.sort(Comparator.comparingLong(GpuShare::badPodMinutes).reversed()
                .thenComparing(Comparator.comparingLong(GpuShare::podMinutes).reversed()));
        List<NodeShare> nodes = new ArrayList<>();
        byNode.forEach((node, t) -> nodes.add(new NodeShare(node.isEmpty() ? null : node, t.podMinutes,
                t.badPodMinutes, t.events, t.badEvents)));
        nodes.sort(Comparator.comparingLong(NodeShare::badPodMinutes).reversed()
                .thenComparing(Comparator.comparingLong(NodeShare::podMinutes).reversed()));
        List<QueueShare> queueShares = new ArrayList<>();
        byQueue.forEach((queue, t) -> queueShares.add(new QueueShare(queue.name(), queue.kind(), List.copyOf(t.pods),
                t.podMinutes, t.badPodMinutes, t.events, t.badEvents)));
        queueShares.sort(Comparator.comparingLong(QueueShare::badPodMinutes).reversed()
                .thenComparing(Comparator.comparingLong(QueueShare::podMinutes).reversed()));
        return new Result(minutes[0], minutes[1], whole.events, whole.badEvents, whole.podMinutes,
                whole.badPodMinutes, unplaced.podMinutes, unplaced.badPodMinutes, List.copyOf(gpus),
                List.copyOf(nodes), List.copyOf(queueShares));
    }

    /** Running sums of one card, node or queue, or of the whole. */
    private static final class Tally {
        final Set<String> pods = new TreeSet<>();
        long podMinutes;
        long badPodMinutes;
        long events;
        long badEvents;

        void add(SloMinutes.PodEvents p, boolean inBadMinute) {
            pods.add(p.pod().podKey());
            podMinutes++;
            badPodMinutes += inBadMinute ? 1 : 0;
            events += p.events().total();
            badEvents += p.events().total() - p.events().good();
        }
    }
}
