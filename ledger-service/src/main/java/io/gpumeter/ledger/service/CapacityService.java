package io.gpumeter.ledger.service;

import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.common.problem.Params;
import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.ledger.domain.GroupDimension;
import io.gpumeter.ledger.domain.NodeInventory;
import io.gpumeter.ledger.domain.TimeBucket;
import io.gpumeter.ledger.repository.CapacityRepository;
import io.gpumeter.ledger.repository.CapacityRepository.Card;
import io.gpumeter.ledger.repository.CapacityRepository.NodeVersion;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Card-hours the GPU inventory could supply over a window (docs/adr/0005-fleet-capacity.md): every registered GPU
 * from its first sighting while its node exists, and for nodes that register no GPUs, the nvidia.com/gpu.count
 * label of each node version while that version is the newest.
 */
@ApplicationScoped
public class CapacityService {

    /** Bounds one query's work, as for GPU-hours. */
    static final Duration MAX_WINDOW = Duration.ofDays(400);
    static final String GPU_COUNT = "nvidia.com/gpu.count";

    /** Capacity of one group: card-hours, and which dimensions (cluster, node, model) it is grouped by. */
    public record CardHours(String key, Map<String, String> group, BigDecimal cardHours) {
    }

    /** A dimension capacity can be grouped by; DAY, WEEK and MONTH are time buckets ({@link TimeBucket}). */
    enum Dimension {
        CLUSTER, NODE, MODEL, DAY, WEEK, MONTH;

        boolean bucket() {
            return this == DAY || this == WEEK || this == MONTH;
        }

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** A stretch of a node's life during which one version of it was the newest: [start, end), end null = open. */
    private record Stretch(Instant start, Instant end, Integer labelledCards, String model) {
    }

    private record NodeKey(String cluster, String node) {
    }

    private final CapacityRepository repository;
    private final Clock clock;

    public CapacityService(CapacityRepository repository, Clock clock) {
        this.repository = repository;
        this.clock = clock;
    }

    /**
     * Card-hours over [from, to), counted up to the earlier of {@code to} and now (as allocated hours are),
     * grouped by the comma-separated dimensions of {@code groupBy} (cluster, node, model; default model).
     */
    public Uni<List<CardHours>> capacity(Instant from, Instant to, String groupBy, String cluster) {
        return capacity(from, to, groupBy, cluster, java.time.ZoneOffset.UTC);
    }

    /** As above; a time bucket among the dimensions splits the card-hours at the local midnights of {@code zone}. */
    public Uni<List<CardHours>> capacity(Instant from, Instant to, String groupBy, String cluster, ZoneId zone) {
        Params.window(from, to);
        if (Duration.between(from, to).compareTo(MAX_WINDOW) > 0) {
            throw ApiProblem.badRequest("to", "to may be at most " + MAX_WINDOW.toDays() + " days after from");
        }
        List<Dimension> dims = dimensions(groupBy);
        String clusterFilter = cluster == null || cluster.isBlank() ? null : cluster.strip();
        Instant now = clock.instant();
        Instant end = to.isAfter(now) ? now : to;
        if (!end.isAfter(from)) {
            return Uni.createFrom().item(List.of());
        }
        List<TimeBucket> buckets = dims.stream().filter(Dimension::bucket).findFirst()
                .map(d -> TimeBucket.over(new TimeWindow(from, end), GroupDimension.valueOf(d.name()), zone))
                .orElse(List.of(new TimeBucket(null, from, end)));
        return repository.nodeVersions(end, clusterFilter)
                .chain(versions -> repository.cards(end, clusterFilter)
                        .map(cards -> sum(from, end, dims, stretches(versions), cards, buckets)));
    }

    static List<Dimension> dimensions(String groupBy) {
        List<Dimension> dims = new ArrayList<>();
        for (String part : (groupBy == null || groupBy.isBlank() ? "model" : groupBy).split(",")) {
            Dimension d = null;
            for (Dimension candidate : Dimension.values()) {
                if (candidate.label().equals(part.strip().toLowerCase(Locale.ROOT))) {
                    d = candidate;
                }
            }
            if (d == null) {
                throw ApiProblem.badRequest("groupBy", "groupBy must be model, node or cluster, and at most one of day, "
                        + "week or month (comma-separated for several), got '" + part.strip() + "'");
            }
            if (dims.contains(d)) {
                throw ApiProblem.badRequest("groupBy", "groupBy names '" + d.label() + "' twice");
            }
            if (d.bucket() && dims.stream().anyMatch(Dimension::bucket)) {
                throw ApiProblem.badRequest("groupBy", "groupBy takes one time bucket (day, week or month), got '"
                        + groupBy.strip() + "'");
            }
            dims.add(d);
        }
        return dims;
    }

    /** Each node's life as consecutive stretches, one per version; a deletion ends the node until it returns. */
    private static Map<NodeKey, List<Stretch>> stretches(List<NodeVersion> versions) {
        Map<NodeKey, List<Stretch>> out = new HashMap<>();
        Map<NodeKey, Stretch> open = new HashMap<>();
        for (NodeVersion v : versions) {
            NodeKey key = new NodeKey(v.cluster(), v.node());
            List<Stretch> life = out.computeIfAbsent(key, k -> new ArrayList<>());
            Stretch current = open.remove(key);
            if (current != null) {
                life.add(new Stretch(current.start(), v.observedAt(), current.labelledCards(), current.model()));
            }
            if (!v.deleted()) {
                open.put(key, new Stretch(v.observedAt(), null, cardCount(v.gpuCount()), model(v)));
            }
        }
        open.forEach((key, stretch) -> out.get(key).add(stretch));
        return out;
    }

    private static List<CardHours> sum(Instant from, Instant end, List<Dimension> dims,
                                       Map<NodeKey, List<Stretch>> lives, List<Card> cards, List<TimeBucket> buckets) {
        CardHourTally tally = new CardHourTally(dims);
        Set<NodeKey> registering = new HashSet<>();
        for (Card card : cards) {
            NodeKey node = new NodeKey(card.cluster(), card.node());
            registering.add(node);
            // A card of a node never observed (not expected) counts from its first sighting on.
            List<Stretch> life = lives.getOrDefault(node, List.of(new Stretch(card.firstSeen(), null, null, null)));
            for (Stretch s : life) {
                for (TimeBucket b : buckets) {
                    tally.add(card.cluster(), card.node(), card.model(), b.label(),
                            overlap(latest(s.start(), card.firstSeen(), b.start()), s.end(), b.end()), 1);
                }
            }
        }
        lives.forEach((node, life) -> {
            if (registering.contains(node)) {
                return; // registered GPUs are the evidence; the count label would count them twice
            }
            for (Stretch s : life) {
                if (s.labelledCards() != null && s.labelledCards() > 0) {
                    for (TimeBucket b : buckets) {
                        tally.add(node.cluster(), node.node(), s.model(), b.label(),
                                overlap(latest(s.start(), b.start(), b.start()), s.end(), b.end()), s.labelledCards());
                    }
                }
            }
        });
        return tally.cardHours();
    }

    /** [start, min(end, windowEnd)); zero or negative when empty. */
    private static Duration overlap(Instant start, Instant end, Instant windowEnd) {
        Instant stop = end == null || end.isAfter(windowEnd) ? windowEnd : end;
        return Duration.between(start, stop);
    }

    private static Instant latest(Instant a, Instant b, Instant c) {
        Instant max = a.isAfter(b) ? a : b;
        return max.isAfter(c) ? max : c;
    }

    /** The label's whole number of cards, or null when absent or unreadable. */
    private static Integer cardCount(String label) {
        if (label == null) {
            return null;
        }
        try {
            int count = Integer.parseInt(label.strip());
            return count >= 0 ? count : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static String model(NodeVersion v) {
        return v.product() == null ? null
                : new NodeInventory(v.node(), Map.of(NodeInventory.PRODUCT, v.product()), List.of()).model();
    }
}
