package io.gpumeter.ledger.service;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.ledger.hours.domain.GroupDimension;
import io.gpumeter.ledger.hours.domain.HourSums;
import io.gpumeter.ledger.hours.domain.TimeBucket;
import io.gpumeter.ledger.repository.AllocationRepository;
import io.gpumeter.ledger.repository.AllocationRepository.PieceSeconds;
import io.gpumeter.ledger.repository.DayBooks;
import io.gpumeter.ledger.repository.UsedHoursRepository;
import io.gpumeter.ledger.repository.UsedHoursRepository.UsedSeconds;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A window's allocated and used seconds per group, day by day of a time zone: a day that is over is read from its day
 * book while no fact of it changed since (DayBooks), the other days are computed, each contiguous run of them in one
 * pass, and the days that are over are stored for the next report. A month's report then computes only today and the
 * days whose facts changed.
 */
@ApplicationScoped
public class DayHours {

    /** The report the day books of this class hold. */
    static final String KIND = "gpu-hours";
    /** A day computed over longer than this is not stored (DayBooks.prune keeps changes for twice as long). */
    static final Duration STORE_WITHIN = Duration.ofMinutes(5);

    /** One day (or the part of it inside the window) and each group's sums in it. */
    public record Day(TimeBucket day, Map<List<String>, HourSums> sums) {
    }

    private final AllocationRepository allocations;
    private final UsedHoursRepository used;
    private final DayBooks books;

    public DayHours(AllocationRepository allocations, UsedHoursRepository used, DayBooks books) {
        this.allocations = allocations;
        this.used = used;
        this.books = books;
    }

    /**
     * The days of {@code zone} that overlap the window up to {@code now}, clipped to it, in order, each with its
     * groups' sums; {@code dimensions} hold no time bucket.
     */
    public Uni<List<Day>> days(TimeWindow window, List<GroupDimension> dimensions, String tenant, ZoneId zone, Instant now) {
        Instant cap = now.isBefore(window.end()) ? now : window.end();
        List<TimeBucket> days = TimeBucket.over(window, GroupDimension.DAY, zone).stream()
                .filter(d -> d.start().isBefore(cap)).toList();
        List<TimeWindow> storable = days.stream().filter(d -> whole(d, zone) && !d.end().isAfter(now))
                .map(d -> new TimeWindow(d.start(), d.end())).toList();
        String shape = shape(dimensions, tenant);
        long started = System.nanoTime();
        return books.snapshot().chain(snapshot -> books.valid(KIND, shape, storable).chain(stored -> {
            List<TimeBucket> missing = days.stream().filter(d -> !stored.containsKey(d.start())).toList();
            return Multi.createFrom().iterable(runs(missing))
                    .onItem().transformToUniAndConcatenate(run -> compute(run, dimensions, tenant, now))
                    .collect().in(HashMap<Instant, Map<List<String>, HourSums>>::new, Map::putAll)
                    .call(computed -> store(shape, snapshot, storable, computed, started))
                    .map(computed -> {
                        List<Day> out = new ArrayList<>(days.size());
                        for (TimeBucket d : days) {
                            JsonArray book = stored.get(d.start());
                            out.add(new Day(d, book != null ? decode(book) : computed.get(d.start())));
                        }
                        return out;
                    });
        }));
    }

    /** One pass over a run of adjacent days: their groups' sums keyed by the day's start. */
    private Uni<Map<Instant, Map<List<String>, HourSums>>> compute(List<TimeBucket> run, List<GroupDimension> dimensions,
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

    private Uni<Void> store(String shape, String snapshot, List<TimeWindow> storable,
                            Map<Instant, Map<List<String>, HourSums>> computed, long started) {
        if (Duration.ofNanos(System.nanoTime() - started).compareTo(STORE_WITHIN) > 0) {
            return Uni.createFrom().voidItem();
        }
        List<DayBooks.Answer> answers = new ArrayList<>();
        for (TimeWindow day : storable) {
            Map<List<String>, HourSums> sums = computed.get(day.start());
            if (sums != null) {
                JsonArray rows = new JsonArray();
                sums.values().forEach(s -> rows.add(s.toJson()));
                answers.add(new DayBooks.Answer(day, rows));
            }
        }
        return books.store(KIND, shape, snapshot, answers);
    }

    private static Map<List<String>, HourSums> decode(JsonArray rows) {
        Map<List<String>, HourSums> out = new LinkedHashMap<>();
        for (int i = 0; i < rows.size(); i++) {
            HourSums sums = HourSums.fromJson(rows.getJsonArray(i));
            out.put(sums.values(), sums);
        }
        return out;
    }

    /** The days in runs of adjacent ones: each run is one pass over the facts. */
    static List<List<TimeBucket>> runs(List<TimeBucket> days) {
        List<List<TimeBucket>> out = new ArrayList<>();
        for (TimeBucket d : days) {
            List<TimeBucket> last = out.isEmpty() ? null : out.get(out.size() - 1);
            if (last != null && last.get(last.size() - 1).end().equals(d.start())) {
                last.add(d);
            } else {
                out.add(new ArrayList<>(List.of(d)));
            }
        }
        return out;
    }

    /** Whether the day is the zone's whole day, midnight to midnight, rather than the part of it a window holds. */
    static boolean whole(TimeBucket day, ZoneId zone) {
        LocalDate date = day.start().atZone(zone).toLocalDate();
        return day.start().equals(date.atStartOfDay(zone).toInstant())
                && day.end().equals(date.plusDays(1).atStartOfDay(zone).toInstant());
    }

    /** What the stored answer of a day is an answer to: the dimensions and the tenant. */
    static String shape(List<GroupDimension> dimensions, String tenant) {
        JsonArray shape = new JsonArray();
        dimensions.forEach(d -> shape.add(d.label()));
        return new JsonArray().add(shape).add(tenant).encode();
    }
}
