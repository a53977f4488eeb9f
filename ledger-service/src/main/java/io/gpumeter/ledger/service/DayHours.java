package io.gpumeter.ledger.service;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.ledger.hours.domain.GroupDimension;
import io.gpumeter.ledger.hours.domain.HourSums;
import io.gpumeter.ledger.hours.domain.TimeBucket;
import io.gpumeter.ledger.repository.AllocationRepository;
import io.gpumeter.ledger.repository.AllocationRepository.PieceSeconds;
import io.gpumeter.ledger.repository.UsedHoursRepository;
import io.gpumeter.ledger.repository.UsedHoursRepository.UsedSeconds;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A window's allocated and used seconds per group, day by day of a time zone, through the day books (BookedDays): a
 * month's report computes only today and the days whose facts changed since it was last asked.
 */
@ApplicationScoped
public class DayHours {

    /** The report the day books of this class hold. */
    static final String KIND = "gpu-hours";

    /** One day (or the part of it inside the window) and each group's sums in it. */
    public record Day(TimeBucket day, Map<List<String>, HourSums> sums) {
    }

    private final AllocationRepository allocations;
    private final UsedHoursRepository used;
    private final BookedDays booked;

    public DayHours(AllocationRepository allocations, UsedHoursRepository used, BookedDays booked) {
        this.allocations = allocations;
        this.used = used;
        this.booked = booked;
    }

    /**
     * The days of {@code zone} that overlap the window up to {@code now}, clipped to it, in order, each with its
     * groups' sums; {@code dimensions} hold no time bucket.
     */
    public Uni<List<Day>> days(TimeWindow window, List<GroupDimension> dimensions, String tenant, ZoneId zone, Instant now) {
        Instant cap = now.isBefore(window.end()) ? now : window.end();
        List<TimeBucket> days = TimeBucket.over(window, GroupDimension.DAY, zone).stream()
                .filter(d -> d.start().isBefore(cap)).toList();
        BookedDays.Report<Map<List<String>, HourSums>> report = new BookedDays.Report<>() {
            @Override
            public Uni<Map<Instant, Map<List<String>, HourSums>>> compute(List<TimeBucket> run) {
                return pass(run, dimensions, tenant, now);
            }

            @Override
            public JsonArray encode(Map<List<String>, HourSums> sums) {
                JsonArray rows = new JsonArray();
                sums.values().forEach(s -> rows.add(s.toJson()));
                return rows;
            }

            @Override
            public Map<List<String>, HourSums> decode(JsonArray rows) {
                Map<List<String>, HourSums> out = new LinkedHashMap<>();
                for (int i = 0; i < rows.size(); i++) {
                    HourSums sums = HourSums.fromJson(rows.getJsonArray(i));
                    out.put(sums.values(), sums);
                }
                return out;
            }
        };
        return booked.read(KIND, shape(dimensions, tenant), days, zone, now, report).map(sums -> {
            List<Day> out = new ArrayList<>(days.size());
            for (int i = 0; i < days.size(); i++) {
                out.add(new Day(days.get(i), sums.get(i)));
            }
            return out;
        });
    }

    /** One pass over a run of adjacent days: their groups' sums keyed by the day's start. */
    private Uni<Map<Instant, Map<List<String>, HourSums>>> pass(List<TimeBucket> run, List<GroupDimension> dimensions,
                                                              String tenant, Instant now) {
        List<TimeBucket> pieces = new ArrayList<>(run.size());
        for (int i = 0; i < run.size(); i++) {
            pieces.add(new TimeBucket(Integer.toString(i), run.get(i).start(), run.get(i).end()));
        }
        TimeWindow span = new TimeWindow(run.get(0).start(), run.get(run.size() - 1).end());
        // Two statements on two connections at once: the pass waits for the slower rather than their sum.
        Uni<List<PieceSeconds>> allocated = allocations.allocatedSeconds(span, dimensions, now, tenant, pieces);
        Uni<List<UsedSeconds>> measured = used.usedSeconds(span, dimensions, now, tenant, pieces);
        return Uni.combine().all().unis(allocated, measured).asTuple().map(both -> {
            Map<Instant, Map<List<String>, HourSums>> out = new HashMap<>();
            run.forEach(d -> out.put(d.start(), new LinkedHashMap<>()));
            for (PieceSeconds a : both.getItem1()) {
                out.get(run.get(Integer.parseInt(a.piece())).start())
                        .computeIfAbsent(a.values(), HourSums::new).addAllocated(a.seconds());
            }
            for (UsedSeconds u : both.getItem2()) {
                out.get(run.get(Integer.parseInt(u.piece())).start())
                        .computeIfAbsent(u.values(), HourSums::new)
                        .addUsed(u.used(), u.covered(), u.metrics(), u.sources(), u.energyJoules(), u.energyCovered(),
                                u.energySources());
            }
            return out;
        });
    }

    /** What the stored answer of a day is an answer to: the dimensions and the tenant. */
    static String shape(List<GroupDimension> dimensions, String tenant) {
        JsonArray shape = new JsonArray();
        dimensions.forEach(d -> shape.add(d.label()));
        return new JsonArray().add(shape).add(tenant).encode();
    }
}
