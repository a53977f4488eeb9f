package io.gpumeter.ledger.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.common.problem.Params;
import io.gpumeter.ledger.config.LedgerConfig;
import io.gpumeter.ledger.domain.GpuRequest;
import io.gpumeter.ledger.domain.HamiResources;
import io.gpumeter.ledger.domain.IdleReport;
import io.gpumeter.ledger.domain.IdleSplit;
import io.gpumeter.ledger.domain.IntervalSet;
import io.gpumeter.ledger.domain.NormalizationPolicy;
import io.gpumeter.ledger.repository.IdleEnergyRepository;
import io.gpumeter.ledger.repository.IdleRepository;
import io.gpumeter.ledger.repository.IdleRepository.AllocatedPart;
import io.gpumeter.ledger.repository.IdleRepository.Card;
import io.gpumeter.ledger.repository.IdleRepository.PendingPod;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/** Q3: why utilization is low — each card's time split into empty, queued-while-empty, allocated-not-busy and busy. */
@ApplicationScoped
public class IdleService {

    /** The tenant group of time no tenant held; parentheses cannot appear in a label value, so no tenant has it. */
    static final String UNALLOCATED = "(unallocated)";

    /** What the split can be grouped by. */
    enum GroupBy {
        GPU, NODE, TENANT;

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        static GroupBy parse(String text) {
            return Params.oneOf("groupBy", text == null || text.isBlank() ? "gpu" : text, values(), GroupBy::label);
        }
    }

    private static final TypeReference<Map<String, Long>> RESOURCES = new TypeReference<>() {
    };

    private final IdleRepository idle;
    private final NormalizationPolicy policy;
    private final ObjectMapper json;
    private final double busyThreshold;
    private final Clock clock;
    private final HamiResources hami;
    private final IdleEnergyRepository energy;

    public IdleService(IdleRepository idle, NormalizationPolicy policy, ObjectMapper json, LedgerConfig config,
            Clock clock, HamiResources hami, IdleEnergyRepository energy) {
        this.hami = hami;
        this.energy = energy;
        this.idle = idle;
        this.policy = policy;
        this.json = json;
        this.busyThreshold = config.idle().busyThreshold();
        this.clock = clock;
    }

    public Uni<IdleReport> split(Instant from, Instant to, String groupBy, String cluster) {
        TimeWindow window = Windows.require(from, to);
        GroupBy group = GroupBy.parse(groupBy);
        String filter = Windows.cluster(cluster);
        Instant cap = Windows.cap(window, clock.instant());
        if (!cap.isAfter(from)) {
            return Uni.createFrom().item(new IdleReport(from, to, group.label(), filter, busyThreshold, List.of()));
        }
        return idle.cards(from, cap, filter).chain(cards -> idle.allocated(from, cap, filter, busyThreshold)
                .chain(parts -> idle.pending(from, cap, filter)
                        .chain(pending -> energy.perCard(from, cap, filter)
                                .map(joules -> new IdleReport(from, to, group.label(), filter, busyThreshold,
                                        rows(group, cards, parts, requests(pending), joules))))));
    }

    private List<IdleReport.Row> rows(GroupBy group, List<Card> cards, List<AllocatedPart> parts, List<Waiting> waiting,
                                      List<IdleEnergyRepository.CardPart> joules) {
        Groups groups = new Groups(group);
        Map<String, IntervalSet> fitting = new HashMap<>();
        for (Card card : cards) {
            IntervalSet empty = IntervalSet.of(card.unallocated());
            // Cards of one cluster, memory and model fit the same pending pods: test each such kind once.
            IntervalSet waited = fitting.computeIfAbsent(card.cluster() + "|" + card.memoryMib() + "|" + card.model(),
                    k -> IntervalSet.of(waiting.stream().filter(w -> w.pod.cluster().equals(card.cluster()))
                            .filter(w -> w.request.fits(BigDecimal.ONE, card.memoryMib(), card.memoryMib(), card.model(), policy))
                            .map(w -> w.window).toList()));
            BigDecimal emptySeconds = seconds(empty.duration());
            BigDecimal queued = seconds(empty.intersect(waited).duration());
            groups.add(card, null, IdleSplit.of(emptySeconds.subtract(queued), queued, BigDecimal.ZERO, BigDecimal.ZERO,
                    BigDecimal.ZERO), null);
        }
        Map<String, Card> byKey = new HashMap<>();
        cards.forEach(c -> byKey.put(c.cluster() + "/" + c.gpuUuid(), c));
        for (AllocatedPart part : parts) {
            Card card = byKey.get(part.cluster() + "/" + part.gpuUuid());
            if (card != null) {
                groups.add(card, part.tenant(), IdleSplit.of(BigDecimal.ZERO, BigDecimal.ZERO, part.notBusy(), part.busy(),
                        part.unmeasured()), part.metrics());
            }
        }
        for (IdleEnergyRepository.CardPart part : joules) {
            Card card = byKey.get(part.cluster() + "/" + part.gpuUuid());
            if (card != null) {
                groups.addEnergy(card, part.tenant(), part.joules());
            }
        }
        return groups.rows();
    }

    /** The split summed per group, in key order. */
    private static final class Groups {
        private final GroupBy by;
        private final Map<String, Map<String, String>> values = new TreeMap<>();
        private final Map<String, IdleSplit> splits = new HashMap<>();
        private final Map<String, TreeSet<String>> metrics = new HashMap<>();
        private final Map<String, Double> unitJoules = new HashMap<>();
        private final Map<String, Double> idleJoules = new HashMap<>();

        Groups(GroupBy by) {
            this.by = by;
        }

        /** Adds a card's part; tenant null is time no tenant held, metrics the activity fields read, comma-separated. */
        void add(Card card, String tenant, IdleSplit split, String metricList) {
            if (by == GroupBy.TENANT && split.total().signum() == 0) {
                return;
            }
            String key = key(card, tenant);
            splits.merge(key, split, IdleSplit::plus);
            TreeSet<String> used = metrics.computeIfAbsent(key, k -> new TreeSet<>());
            if (metricList != null) {
                used.addAll(Arrays.asList(metricList.split(",")));
            }
        }

        /** Adds a card's energy held by a tenant's units, or by none (tenant null): the group's idle energy. */
        void addEnergy(Card card, String tenant, double joules) {
            if (by == GroupBy.TENANT && joules == 0) {
                return;
            }
            String key = key(card, tenant);
            splits.putIfAbsent(key, IdleSplit.ZERO);
            metrics.computeIfAbsent(key, k -> new TreeSet<>());
            (tenant == null ? idleJoules : unitJoules).merge(key, joules, Double::sum);
        }

        /** The group of a card's part, registered on first sight. */
        private String key(Card card, String tenant) {
            Map<String, String> group = new LinkedHashMap<>();
            switch (by) {
                case GPU -> {
                    group.put("cluster", card.cluster());
                    group.put("gpu", card.gpuUuid());
                }
                case NODE -> {
                    group.put("cluster", card.cluster());
                    group.put("node", card.node() == null ? "unknown" : card.node());
                }
                case TENANT -> group.put("tenant", tenant == null ? UNALLOCATED : tenant);
            }
            String key = by == GroupBy.GPU ? card.gpuUuid() : String.join("/", group.values());
            values.putIfAbsent(key, group);
            return key;
        }

        List<IdleReport.Row> rows() {
            List<IdleReport.Row> rows = new ArrayList<>();
            values.forEach((key, group) -> {
                IdleSplit split = splits.get(key);
                TreeSet<String> used = metrics.get(key);
                rows.add(new IdleReport.Row(key, group, split.rounded(), split.shares(),
                        used.isEmpty() ? null : String.join(",", used), kWh(unitJoules.get(key)),
                        kWh(idleJoules.get(key))));
            });
            return rows;
        }
    }

    /** Joules as kilowatt-hours; none measured is 0. */
    private static BigDecimal kWh(Double joules) {
        return joules == null ? BigDecimal.ZERO : BigDecimal.valueOf(joules)
                .divide(BigDecimal.valueOf(3_600_000), 9, java.math.RoundingMode.HALF_EVEN).stripTrailingZeros();
    }

    /** A pending pod's request and the part of the window it waited. */
    private record Waiting(PendingPod pod, GpuRequest request, TimeWindow window) {
    }

    private List<Waiting> requests(List<PendingPod> pending) {
        List<Waiting> out = new ArrayList<>();
        for (PendingPod p : pending) {
            GpuRequest request = GpuRequest.of(resources(p.resources()), hami);
            Instant end = p.until() == null ? Instant.MAX : p.until();
            if (request.asksForGpu() && end.isAfter(p.since())) {
                out.add(new Waiting(p, request, new TimeWindow(p.since(), end)));
            }
        }
        return out;
    }

    private Map<String, Long> resources(String text) {
        if (text == null || text.isBlank() || "null".equals(text)) {
            return Map.of();
        }
        try {
            return json.readValue(text, RESOURCES);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored GPU resources are unreadable", e);
        }
    }

    private static BigDecimal seconds(Duration d) {
        return BigDecimal.valueOf(d.getSeconds()).add(BigDecimal.valueOf(d.getNano(), 9));
    }
}
