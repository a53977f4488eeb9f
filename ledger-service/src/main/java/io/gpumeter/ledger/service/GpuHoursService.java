package io.gpumeter.ledger.service;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.common.problem.Params;
import io.gpumeter.ledger.hours.domain.GpuHours;
import io.gpumeter.ledger.hours.domain.GroupDimension;
import io.gpumeter.ledger.hours.domain.TimeBucket;
import io.gpumeter.ledger.hours.domain.HourSums;
import io.gpumeter.ledger.repository.IdleEnergyRepository;
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
import java.util.TreeMap;

/** Allocated, used and idle normalized GPU-hours per group over a window, and the energy of the group's units and cards. */
@ApplicationScoped
public class GpuHoursService {

    /** Bounds one query's work; a year of monthly reports fits with room to spare. */
    static final Duration MAX_WINDOW = Duration.ofDays(400);

    /** The dimensions a card has: grouped by these alone, a group's cards have an energy no unit held. */
    private static final Set<GroupDimension> CARD_DIMENSIONS = EnumSet.of(GroupDimension.CLUSTER, GroupDimension.NODE,
            GroupDimension.MODEL, GroupDimension.DAY, GroupDimension.WEEK, GroupDimension.MONTH);

    private final DayHours days;
    private final IdleEnergyRepository idleEnergy;
    private final Clock clock;

    public GpuHoursService(DayHours days, IdleEnergyRepository idleEnergy, Clock clock) {
        this.days = days;
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
        GroupDimension unit = dims.stream().filter(GroupDimension::bucket).findFirst().orElse(null);
        List<TimeBucket> buckets = unit == null ? null : TimeBucket.over(window, unit, zone);
        List<GroupDimension> plain = dims.stream().filter(d -> !d.bucket()).toList();
        Instant now = clock.instant();
        // The hours are added up day by day of the zone (DayHours); the idle energy is read for the window at once,
        // beside them.
        Uni<List<GpuHours>> rows = days.days(window, plain, tenant, zone, now)
                .map(perDay -> rows(perDay, dims, unit, buckets));
        if (tenant != null || !CARD_DIMENSIONS.containsAll(dims)) {
            return rows;
        }
        return Uni.combine().all().unis(rows, idleEnergy.idleEnergy(window, dims, now, buckets)).asTuple()
                .map(both -> withIdle(both.getItem1(), both.getItem2()));
    }

    /**
     * The days' sums added up per group (and per bucket, the bucket's label in its place among the dimensions), the
     * groups that were allocated anything, in the order of their values (code point by code point, PostgreSQL's
     * C collation).
     */
    static List<GpuHours> rows(List<DayHours.Day> perDay, List<GroupDimension> dims, GroupDimension unit,
                               List<TimeBucket> buckets) {
        Map<List<String>, HourSums> merged = new TreeMap<>(GpuHoursService::compareValues);
        int at = unit == null ? -1 : dims.indexOf(unit);
        for (DayHours.Day day : perDay) {
            String label = unit == null ? null : bucketOf(day.day(), buckets);
            for (HourSums sums : day.sums().values()) {
                List<String> values = new ArrayList<>(sums.values());
                if (label != null) {
                    values.add(at, label);
                }
                merged.computeIfAbsent(values, HourSums::new).add(sums);
            }
        }
        List<String> labels = dims.stream().map(GroupDimension::label).toList();
        return merged.values().stream().filter(HourSums::allocated).map(s -> s.toGpuHours(labels)).toList();
    }

    /** The label of the bucket a day lies in: days and buckets share the zone's midnights. */
    private static String bucketOf(TimeBucket day, List<TimeBucket> buckets) {
        for (TimeBucket b : buckets) {
            if (!day.start().isBefore(b.start()) && day.start().isBefore(b.end())) {
                return b.label();
            }
        }
        throw new IllegalStateException("no bucket holds the day from " + day.start());
    }

    static int compareValues(List<String> a, List<String> b) {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            int c = compareCodePoints(a.get(i), b.get(i));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(a.size(), b.size());
    }

    private static int compareCodePoints(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
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
