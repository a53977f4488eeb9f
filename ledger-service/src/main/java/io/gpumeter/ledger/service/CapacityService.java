package io.gpumeter.ledger.service;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.common.problem.Params;
import io.gpumeter.ledger.hours.domain.GroupDimension;
import io.gpumeter.ledger.hours.domain.TimeBucket;
import io.gpumeter.ledger.repository.CapacityRepository;
import io.gpumeter.ledger.service.CardPresence.Presence;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Card-hours the GPU inventory could supply over a window (docs/adr/0006-fleet-capacity.md): every registered GPU
 * from when it entered the inventory while its node exists, and for nodes that register no GPUs, the
 * nvidia.com/gpu.count label of each node version while that version is the newest ({@link CardPresence}).
 */
@ApplicationScoped
public class CapacityService {

    /** Bounds one query's work, as for GPU-hours. */
    static final Duration MAX_WINDOW = Duration.ofDays(400);

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
        return presences(end, clusterFilter).map(presences -> sum(dims, presences, buckets));
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

    /**
     * When the inventory held which cards up to {@code end} (the one reading supply shares): node versions observed
     * before it, each node's first version, every card and each node's creation.
     */
    Uni<List<Presence>> presences(Instant end, String cluster) {
        return Uni.combine().all().unis(repository.nodeVersions(end, cluster), repository.creations(cluster),
                repository.cards(cluster)).asTuple().map(t -> CardPresence.of(t.getItem1(), t.getItem2(), t.getItem3()));
    }

    private static List<CardHours> sum(List<Dimension> dims, List<Presence> presences, List<TimeBucket> buckets) {
        CardHourTally tally = new CardHourTally(dims);
        for (Presence p : presences) {
            for (TimeBucket b : buckets) {
                Instant start = p.start().isAfter(b.start()) ? p.start() : b.start();
                tally.add(p.cluster(), p.node(), p.model(), b.label(), overlap(start, p.end(), b.end()), p.cards());
            }
        }
        return tally.cardHours();
    }

    /** [start, min(end, windowEnd)); zero or negative when empty. */
    private static Duration overlap(Instant start, Instant end, Instant windowEnd) {
        Instant stop = end == null || end.isAfter(windowEnd) ? windowEnd : end;
        return Duration.between(start, stop);
    }
}
