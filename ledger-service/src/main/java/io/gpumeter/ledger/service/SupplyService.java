package io.gpumeter.ledger.service;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.common.fact.NodeStatusFact;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.common.problem.Params;
import io.gpumeter.ledger.fragmentation.domain.RequestRoom;
import io.gpumeter.ledger.governance.domain.Incident;
import io.gpumeter.ledger.governance.domain.NodeCordons.Cordon;
import io.gpumeter.ledger.governance.domain.NodeCordons;
import io.gpumeter.ledger.hours.domain.GroupDimension;
import io.gpumeter.ledger.hours.domain.TimeBucket;
import io.gpumeter.ledger.repository.SupplyRepository.ClusterIncident;
import io.gpumeter.ledger.repository.SupplyRepository.NodeStatus;
import io.gpumeter.ledger.repository.SupplyRepository;
import io.gpumeter.ledger.service.SupplyTimeline.Failing;
import io.gpumeter.ledger.supply.domain.CardFailures;
import io.gpumeter.ledger.supply.domain.Supply;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The supply side of a capacity plan (docs/adr/0006-fleet-capacity.md): per GPU model, the card-hours of each local
 * day as {@code /api/v1/capacity} counts them, with the cordoned, failed and usable ones; the inventory at the
 * window's end and the request shapes its usable cards offer, as the fragmentation read places what is held; card
 * failures and the runbook's cordons, and planned maintenance (a person's cordons), over the window.
 */
@ApplicationScoped
public class SupplyService {

    private static final String UTC = "UTC";

    private final CapacityService capacity;
    private final FragmentationService fragmentation;
    private final SupplyRepository repository;
    private final Clock clock;

    public SupplyService(CapacityService capacity, FragmentationService fragmentation, SupplyRepository repository,
                         Clock clock) {
        this.capacity = capacity;
        this.fragmentation = fragmentation;
        this.repository = repository;
        this.clock = clock;
    }

    /** Over [from, to), counted up to the earlier of {@code to} and now; days split at the local midnights of the zone. */
    public Uni<Supply> supply(Instant from, Instant to, String timeZone, String cluster) {
        Params.window(from, to);
        if (to.isAfter(from.plus(CapacityService.MAX_WINDOW))) {
            throw ApiProblem.badRequest("to", "to may be at most " + CapacityService.MAX_WINDOW.toDays() + " days after from");
        }
        ZoneId zone = GpuHoursService.zone(timeZone);
        String zoneName = timeZone == null || timeZone.isBlank() ? UTC : zone.getId();
        String filter = Windows.cluster(cluster);
        Instant now = clock.instant();
        Instant end = to.isAfter(now) ? now : to;
        if (!end.isAfter(from)) {
            return Uni.createFrom().item(new Supply(from, to, zoneName, filter, List.of()));
        }
        List<TimeBucket> days = TimeBucket.over(new TimeWindow(from, end), GroupDimension.DAY, zone);
        // The four reads depend on none of each other: asked for at once, the answer waits for the slowest alone.
        return Uni.combine().all().unis(capacity.presences(end, filter), repository.statuses(end, filter),
                        repository.cardIncidents(from, end, filter), fragmentation.rooms(end, filter)).asTuple()
                .map(t -> {
                    SupplyTimeline timeline = new SupplyTimeline(from, end, days);
                    timeline.walk(t.getItem1(), cordons(t.getItem2()), failing(t.getItem3()));
                    List<RequestRoom> usable = SupplyShapes.usable(t.getItem4(), timeline.endState);
                    return new Supply(from, to, zoneName, filter, SupplyModels.of(from, end, days, t.getItem1(), timeline,
                            usable));
                });
    }

    /** Each node's cordons, from its status versions. */
    private static Map<String, List<Cordon>> cordons(List<NodeStatus> statuses) {
        Map<String, List<NodeStatusFact>> byNode = new HashMap<>();
        statuses.forEach(s -> byNode.computeIfAbsent(s.cluster() + "/" + s.status().name(), k -> new ArrayList<>())
                .add(s.status()));
        Map<String, List<Cordon>> out = new HashMap<>();
        byNode.forEach((node, versions) -> out.put(node, NodeCordons.of(versions)));
        return out;
    }

    /** The incidents that are a card failing ({@link CardFailures}), each under the card it names. */
    private static List<Failing> failing(List<ClusterIncident> incidents) {
        List<Failing> out = new ArrayList<>();
        for (ClusterIncident ci : incidents) {
            Incident i = ci.incident();
            if (!CardFailures.counts(i.scope(), i.cause()) || i.node() == null && i.gpuUuid() == null) {
                continue;
            }
            String identity = ci.cluster() + "/" + (i.gpuUuid() != null ? i.gpuUuid()
                    : i.node() + "/" + (i.gpuPci() != null ? i.gpuPci() : i.subject()));
            Instant over = i.recoveredAt() != null ? i.recoveredAt() : i.endedAt();
            out.add(new Failing(ci.cluster(), i.node(), i.gpuUuid(), identity, i.startedAt(), over, i.recoveredAt()));
        }
        return out;
    }
}
