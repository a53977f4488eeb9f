package io.gpumeter.ledger.service;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.common.problem.Params;
import io.gpumeter.ledger.hours.domain.GpuHours;
import io.gpumeter.ledger.hours.domain.GroupDimension;
import io.gpumeter.ledger.hours.domain.TimeBucket;
import io.gpumeter.ledger.hours.domain.UsedHours;
import io.gpumeter.ledger.repository.AllocationRepository;
import io.gpumeter.ledger.repository.IdleEnergyRepository;
import io.gpumeter.ledger.repository.UsedHoursRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Clock;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Allocated, used and idle normalized GPU-hours per group over a window, and the energy of the group's units and cards. */
@ApplicationScoped
public class GpuHoursService {

    /** Bounds one query's work; a year of monthly reports fits with room to spare. */
    static final Duration MAX_WINDOW = Duration.ofDays(400);

    /** The dimensions a card has: grouped by these alone, a group's cards have an energy no unit held. */
    private static final Set<GroupDimension> CARD_DIMENSIONS = EnumSet.of(GroupDimension.CLUSTER, GroupDimension.NODE,
            GroupDimension.MODEL, GroupDimension.DAY, GroupDimension.WEEK, GroupDimension.MONTH);

    private final AllocationRepository allocations;
    private final UsedHoursRepository used;
    private final IdleEnergyRepository idleEnergy;
    private final Clock clock;

    public GpuHoursService(AllocationRepository allocations, UsedHoursRepository used, IdleEnergyRepository idleEnergy,
                           Clock clock) {
        this.allocations = allocations;
        this.used = used;
        this.idleEnergy = idleEnergy;
        this.clock = clock;
    }

    /** {@code tenant}, when given, keeps that tenant's rows only (the used share is still apportioned card-wide). */
    public Uni<List<GpuHours>> allocated(Instant from, Instant to, String groupBy, String tenant) {
        return allocated(from, to, groupBy, tenant, ZoneOffset.UTC);
    }

    /**
     * As {@link #allocated(Instant, Instant, String, String)}; a time bucket among the dimensions (day, week, month)
     * splits every segment and every measured minute at the bucket seams, the local midnights of {@code zone}.
     */
    public Uni<List<GpuHours>> allocated(Instant from, Instant to, String groupBy, String tenant, ZoneId zone) {
        TimeWindow window = Params.window(from, to, MAX_WINDOW);
        List<GroupDimension> dims = dimensions(groupBy);
        List<TimeBucket> buckets = dims.stream().filter(GroupDimension::bucket).findFirst()
                .map(unit -> TimeBucket.over(window, unit, zone)).orElse(null);
        Instant now = clock.instant();
        // The reads are independent, each one statement on a connection of its own: asked at once, the answer waits
        // for the slowest instead of their sum.
        Uni<List<GpuHours>> allocated = allocations.allocatedHours(window, dims, now, tenant, buckets);
        Uni<Map<String, UsedHours>> usedByKey = used.usedHours(window, dims, now, tenant, buckets);
        Uni<List<GpuHours>> rows = Uni.combine().all().unis(allocated, usedByKey).asTuple()
                .map(both -> both.getItem1().stream()
                        .map(a -> GpuHours.of(a.key(), a.group(), a.allocatedGpuHours(), both.getItem2().get(a.key())))
                        .toList());
        if (tenant != null || !CARD_DIMENSIONS.containsAll(dims)) {
            return rows;
        }
        return Uni.combine().all().unis(rows, idleEnergy.idleEnergy(window, dims, now, buckets)).asTuple()
                .map(both -> withIdle(both.getItem1(), both.getItem2()));
    }

    /**
     * The rows with their cards' idle energy, and a row of its own for each group whose cards drew energy while it held
     * nothing in the window (allocated 0), in key order after the others: the rows' energy and idle energy then add up
     * to all the energy their cards drew.
     */
    static List<GpuHours> withIdle(List<GpuHours> hours, List<IdleEnergyRepository.Idle> idle) {
        Map<String, IdleEnergyRepository.Idle> byKey = new LinkedHashMap<>();
        idle.forEach(i -> byKey.put(i.key(), i));
        List<GpuHours> out = new ArrayList<>();
        for (GpuHours h : hours) {
            IdleEnergyRepository.Idle i = byKey.remove(h.key());
            out.add(h.withIdleEnergy(i == null ? 0 : i.joules()));
        }
        byKey.values().stream().filter(i -> i.joules() > 0)
                .sorted(java.util.Comparator.comparing(IdleEnergyRepository.Idle::key))
                .forEach(i -> out.add(GpuHours.idleOnly(i.key(), i.group(), i.joules())));
        return out;
    }

    /** The IANA time zone of the bucket seams, UTC when absent. */
    public static ZoneId zone(String timeZone) {
        if (timeZone == null || timeZone.isBlank()) {
            return ZoneOffset.UTC;
        }
        try {
            return ZoneId.of(timeZone.strip());
        } catch (DateTimeException e) {
            throw ApiProblem.badRequest("timeZone", "timeZone must be a time zone such as UTC or Europe/Berlin, got '"
                    + timeZone.strip() + "'");
        }
    }

    static List<GroupDimension> dimensions(String groupBy) {
        List<GroupDimension> dims = new ArrayList<>();
        for (String part : (groupBy == null || groupBy.isBlank() ? "tenant" : groupBy).split(",")) {
            GroupDimension d;
            try {
                d = GroupDimension.parse(part);
            } catch (IllegalArgumentException e) {
                throw ApiProblem.badRequest("groupBy", "groupBy " + e.getMessage());
            }
            if (dims.contains(d)) {
                throw ApiProblem.badRequest("groupBy", "groupBy names '" + d.label() + "' twice");
            }
            if (d.bucket() && dims.stream().anyMatch(GroupDimension::bucket)) {
                throw ApiProblem.badRequest("groupBy", "groupBy takes one time bucket (day, week or month), got '"
                        + groupBy.strip() + "'");
            }
            dims.add(d);
        }
        return dims;
    }
}
