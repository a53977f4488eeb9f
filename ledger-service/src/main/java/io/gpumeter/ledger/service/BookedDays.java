package io.gpumeter.ledger.service;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.ledger.hours.domain.TimeBucket;
import io.gpumeter.ledger.repository.DayBooks;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A report read day by day through its day books (DayBooks): a day that is over is read from its book while no fact of
 * it changed since, the other days are computed, each contiguous run of them in one pass, and the days that are over
 * are stored for the next read. A month's report then computes only today and the days whose facts changed.
 */
@ApplicationScoped
public class BookedDays {

    /** A day computed over longer than this is not stored (DayBooks.prune keeps changes for twice as long). */
    static final Duration STORE_WITHIN = Duration.ofMinutes(5);

    /** How a report's days are computed, stored and read back. */
    public interface Report<T> {
        /** Each day of a run of adjacent days, keyed by the day's start. */
        Uni<Map<Instant, T>> compute(List<TimeBucket> run);

        JsonArray encode(T answer);

        T decode(JsonArray stored);
    }

    private static final Logger LOG = Logger.getLogger(BookedDays.class);

    private final DayBooks books;

    public BookedDays(DayBooks books) {
        this.books = books;
    }

    /**
     * Each of {@code days} (days of {@code zone} clipped to a window, in order, none after {@code now}) with its answer;
     * {@code kind} and {@code shape} say what was asked.
     */
    public <T> Uni<List<T>> read(String kind, String shape, List<TimeBucket> days, ZoneId zone, Instant now, Report<T> report) {
        List<TimeWindow> storable = days.stream().filter(d -> whole(d, zone) && !d.end().isAfter(now))
                .map(d -> new TimeWindow(d.start(), d.end())).toList();
        long started = System.nanoTime();
        return books.snapshot().chain(snapshot -> books.valid(kind, shape, storable).chain(stored -> {
            List<TimeBucket> missing = days.stream().filter(d -> !stored.containsKey(d.start())).toList();
            return Multi.createFrom().iterable(runs(missing))
                    .onItem().transformToUniAndConcatenate(report::compute)
                    .collect().in(HashMap<Instant, T>::new, Map::putAll)
                    .call(computed -> store(kind, shape, snapshot, storable, computed, report, started))
                    .map(computed -> {
                        List<T> out = new ArrayList<>(days.size());
                        for (TimeBucket d : days) {
                            JsonArray book = stored.get(d.start());
                            out.add(book != null ? report.decode(book) : computed.get(d.start()));
                        }
                        return out;
                    });
        }));
    }

    private <T> Uni<Void> store(String kind, String shape, String snapshot, List<TimeWindow> storable,
                                Map<Instant, T> computed, Report<T> report, long started) {
        if (Duration.ofNanos(System.nanoTime() - started).compareTo(STORE_WITHIN) > 0) {
            return Uni.createFrom().voidItem();
        }
        List<DayBooks.Answer> answers = new ArrayList<>();
        for (TimeWindow day : storable) {
            T answer = computed.get(day.start());
            if (answer != null) {
                answers.add(new DayBooks.Answer(day, report.encode(answer)));
            }
        }
        // A day not stored is computed again next time: the read that computed it still answers.
        return books.store(kind, shape, snapshot, answers).onFailure().recoverWithUni(e -> {
            LOG.warnf("day books of %s not stored: %s", kind, e.toString());
            return Uni.createFrom().voidItem();
        });
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
}
