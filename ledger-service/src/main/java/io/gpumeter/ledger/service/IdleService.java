package io.gpumeter.ledger.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.ledger.allocation.domain.NormalizationPolicy;
import io.gpumeter.ledger.config.LedgerConfig;
import io.gpumeter.ledger.hami.domain.HamiResources;
import io.gpumeter.ledger.idle.domain.GpuRequest;
import io.gpumeter.ledger.idle.domain.IdleCauseThresholds;
import io.gpumeter.ledger.idle.domain.IdleCauses;
import io.gpumeter.ledger.idle.domain.IdleReport;
import io.gpumeter.ledger.idle.domain.IdleSplit;
import io.gpumeter.ledger.idle.domain.IntervalSet;
import io.gpumeter.ledger.repository.IdleEnergyRepository;
import io.gpumeter.ledger.repository.IdleRepository.AllocatedPart;
import io.gpumeter.ledger.repository.IdleRepository.Card;
import io.gpumeter.ledger.repository.IdleRepository;
import io.gpumeter.ledger.repository.PendingPodsRepository;
import io.gpumeter.ledger.repository.PendingPodsRepository.PendingPod;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Q3: why utilization is low — each card's time split into empty, queued-while-empty, allocated-not-busy and busy, and
 * the allocated-not-busy time by the host's cause (ADR 22).
 */
@ApplicationScoped
public class IdleService {

    private static final TypeReference<Map<String, Long>> RESOURCES = new TypeReference<>() {
    };

    private final IdleRepository idle;
    private final PendingPodsRepository pendingPods;
    private final NormalizationPolicy policy;
    private final ObjectMapper json;
    private final double busyThreshold;
    private final IdleCauseThresholds causeThresholds;
    private final Clock clock;
    private final HamiResources hami;
    private final IdleEnergyRepository energy;
    private final DayIdleParts dayParts;

    public IdleService(IdleRepository idle, PendingPodsRepository pendingPods, NormalizationPolicy policy,
            ObjectMapper json, LedgerConfig config, Clock clock, HamiResources hami, IdleEnergyRepository energy,
            DayIdleParts dayParts) {
        this.dayParts = dayParts;
        this.pendingPods = pendingPods;
        this.hami = hami;
        this.energy = energy;
        this.idle = idle;
        this.policy = policy;
        this.json = json;
        this.busyThreshold = config.idle().busyThreshold();
        this.causeThresholds = IdleCauseThresholds.of(config.idle());
        this.clock = clock;
    }

    public Uni<IdleReport> split(Instant from, Instant to, String groupBy, String cluster) {
        TimeWindow window = Windows.require(from, to);
        IdleGroups.By group = IdleGroups.By.parse(groupBy);
        String filter = Windows.cluster(cluster);
        Instant now = clock.instant();
        Instant cap = Windows.cap(window, now);
        if (!cap.isAfter(from)) {
            return Uni.createFrom().item(new IdleReport(from, to, group.label(), filter, busyThreshold,
                    causeThresholds, List.of()));
        }
        // The four reads are independent: asked at once, the split waits for the slowest rather than their sum.
        return Uni.combine().all().unis(idle.cards(from, cap, filter),
                        dayParts.allocated(from, cap, filter, busyThreshold, group, causeThresholds, now),
                        pendingPods.pending(from, cap, filter), energy.perCard(from, cap, filter)).asTuple()
                .map(t -> new IdleReport(from, to, group.label(), filter, busyThreshold, causeThresholds,
                        rows(group, t.getItem1(), t.getItem2(), requests(t.getItem3()), t.getItem4())));
    }

    private List<IdleReport.Row> rows(IdleGroups.By group, List<Card> cards, List<AllocatedPart> parts,
                                      List<Waiting> waiting, List<IdleEnergyRepository.CardPart> joules) {
        IdleGroups groups = new IdleGroups(group);
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
            groups.add(card, IdleGroups.Holder.NOBODY, IdleSplit.of(emptySeconds.subtract(queued), queued,
                    BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO), IdleCauses.NONE, null);
        }
        Map<String, Card> byKey = new HashMap<>();
        cards.forEach(c -> byKey.put(c.cluster() + "/" + c.gpuUuid(), c));
        for (AllocatedPart part : parts) {
            Card card = byKey.get(part.cluster() + "/" + part.gpuUuid());
            if (card != null) {
                groups.add(card, new IdleGroups.Holder(part.tenant(), part.namespace(), part.pod()),
                        IdleSplit.of(BigDecimal.ZERO, BigDecimal.ZERO, part.notBusy(), part.busy(), part.unmeasured()),
                        part.causes(), part.metrics());
            }
        }
        for (IdleEnergyRepository.CardPart part : joules) {
            Card card = byKey.get(part.cluster() + "/" + part.gpuUuid());
            if (card != null) {
                groups.addEnergy(card, new IdleGroups.Holder(part.tenant(), part.namespace(), part.pod()),
                        part.joules());
            }
        }
        return groups.rows();
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
