package io.gpumeter.ledger.service;

import io.gpumeter.ledger.config.LedgerConfig;
import io.gpumeter.ledger.repository.CounterRepository.Derived;
import io.gpumeter.ledger.repository.CounterRepository.Readings;
import io.gpumeter.ledger.repository.CounterRepository.Span;
import io.gpumeter.ledger.repository.CounterRepository;
import io.gpumeter.ledger.repository.UsageRepository;
import io.gpumeter.ledger.usage.domain.CounterField;
import io.gpumeter.ledger.usage.domain.CounterIncrease;
import io.gpumeter.ledger.usage.domain.MinuteFolds;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The cards' counters (energy, power and thermal violation time): their readings are kept as delivered, and every
 * delivery works out again the per-minute increase of the minutes its readings can change — those up to {@link
 * CounterIncrease#MAX_GAP} either side, since a stretch between two readings is at most that long — into usage_minute
 * (ENERGY_J, POWER_VIOLATION_S, THERMAL_VIOLATION_S), where the usage reads and the hour folding find them as any
 * other series. A second already held counts once, as for every usage series. Readings of days the minute retention
 * has let go are not kept, and minutes are derived only for days after the first one it still keeps, so that a day
 * folded into hours is never written to again.
 */
@ApplicationScoped
public class CounterBooks {

    private static final Duration MINUTE = Duration.ofMinutes(1);

    private final CounterRepository counters;
    private final UsageRepository usage;
    private final Clock clock;
    private final Duration minuteRetention;

    public CounterBooks(CounterRepository counters, UsageRepository usage, Clock clock, LedgerConfig config) {
        this.counters = counters;
        this.usage = usage;
        this.clock = clock;
        this.minuteRetention = config.retention().minutes();
    }

    /** A card's counter. */
    private record Series(String gpuUuid, String field) {
    }

    /** Keeps the counters' readings and derives their minutes; returns how many readings were new. */
    public Uni<Integer> record(SqlConnection conn, String cluster, MinuteFolds folds) {
        Instant kept = LocalDate.ofInstant(clock.instant().minus(minuteRetention), ZoneOffset.UTC)
                .atStartOfDay(ZoneOffset.UTC).toInstant();
        Map<Series, TreeMap<Instant, MinuteFolds.Fold>> incoming = new HashMap<>();
        folds.rows().forEach((key, fold) -> {
            if (!key.minute().isBefore(kept)) {
                incoming.computeIfAbsent(new Series(key.gpuUuid(), key.field()), s -> new TreeMap<>()).put(key.minute(), fold);
            }
        });
        if (incoming.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        Duration reach = CounterIncrease.MAX_GAP.multipliedBy(2).plus(MINUTE);
        List<Span> spans = new ArrayList<>();
        incoming.forEach((series, minutes) -> spans.add(new Span(series.gpuUuid(), series.field(),
                minutes.firstKey().minus(reach), minutes.lastKey().plus(reach).plus(MINUTE))));
        Set<LocalDate> days = new TreeSet<>();
        incoming.values().forEach(m -> m.keySet().forEach(minute -> days.add(day(minute))));
        return counters.ensurePartitions(conn, days, day(kept))
                .chain(() -> counters.read(conn, cluster, spans))
                .chain(stored -> merge(conn, cluster, incoming, stored, kept.plus(Duration.ofDays(1))));
    }

    private Uni<Integer> merge(SqlConnection conn, String cluster, Map<Series, TreeMap<Instant, MinuteFolds.Fold>> incoming,
                               List<Readings> stored, Instant derivedFrom) {
        Map<Series, TreeMap<Instant, Readings>> all = new HashMap<>();
        for (Readings r : stored) {
            all.computeIfAbsent(new Series(r.gpuUuid(), r.field()), s -> new TreeMap<>()).put(r.minute(), r);
        }
        List<Readings> changed = new ArrayList<>();
        Set<Series> touched = new java.util.HashSet<>();
        int added = 0;
        for (Map.Entry<Series, TreeMap<Instant, MinuteFolds.Fold>> e : incoming.entrySet()) {
            TreeMap<Instant, Readings> minutes = all.computeIfAbsent(e.getKey(), s -> new TreeMap<>());
            for (Map.Entry<Instant, MinuteFolds.Fold> m : e.getValue().entrySet()) {
                Readings before = minutes.get(m.getKey());
                Readings after = withNew(e.getKey(), m.getKey(), before, m.getValue());
                int fresh = after.millis().length - (before == null ? 0 : before.millis().length);
                if (fresh > 0) {
                    added += fresh;
                    minutes.put(m.getKey(), after);
                    changed.add(after);
                    touched.add(e.getKey());
                }
            }
        }
        List<Derived> derived = new ArrayList<>();
        for (Series series : touched) {
            CounterField field = CounterField.ofRaw(series.field()).orElseThrow();
            TreeMap<Instant, MinuteFolds.Fold> news = incoming.get(series);
            Instant from = later(news.firstKey().minus(CounterIncrease.MAX_GAP), derivedFrom);
            Instant to = news.lastKey().plus(MINUTE).plus(CounterIncrease.MAX_GAP);
            if (!from.isBefore(to)) {
                continue;
            }
            CounterIncrease.perMinute(readings(all.get(series)), field, from, to).values()
                    .forEach(minute -> derived.add(new Derived(series.gpuUuid(), field.derived().name(), minute)));
        }
        Set<LocalDate> derivedDays = new TreeSet<>();
        derived.forEach(d -> derivedDays.add(day(d.minute().minute())));
        int accepted = added;
        return counters.store(conn, cluster, changed)
                .chain(() -> usage.ensurePartitions(conn, derivedDays))
                .chain(() -> counters.storeDerived(conn, cluster, derived))
                .replaceWith(accepted);
    }

    /** The minute's readings with the delivery's added: a second already held keeps its reading. */
    private static Readings withNew(Series series, Instant minute, Readings before, MinuteFolds.Fold fold) {
        TreeMap<Integer, Double> byMillis = new TreeMap<>();
        long held = 0;
        if (before != null) {
            for (int i = 0; i < before.millis().length; i++) {
                byMillis.put(before.millis()[i], before.values()[i]);
                held |= 1L << (before.millis()[i] / 1000);
            }
        }
        for (int s = 0; s < 60; s++) {
            long bit = 1L << s;
            if ((fold.seconds() & bit) != 0 && (held & bit) == 0) {
                byMillis.put(fold.millis(s), fold.value(s));
            }
        }
        int[] millis = new int[byMillis.size()];
        double[] values = new double[byMillis.size()];
        int i = 0;
        for (Map.Entry<Integer, Double> r : byMillis.entrySet()) {
            millis[i] = r.getKey();
            values[i++] = r.getValue();
        }
        return new Readings(series.gpuUuid(), series.field(), minute, millis, values);
    }

    private static List<CounterIncrease.Reading> readings(TreeMap<Instant, Readings> minutes) {
        List<CounterIncrease.Reading> out = new ArrayList<>();
        for (Readings r : minutes.values()) {
            long base = r.minute().toEpochMilli();
            for (int i = 0; i < r.millis().length; i++) {
                out.add(new CounterIncrease.Reading(base + r.millis()[i], r.values()[i]));
            }
        }
        return out;
    }

    private static Instant later(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    private static LocalDate day(Instant minute) {
        return LocalDate.ofInstant(minute.truncatedTo(ChronoUnit.DAYS), ZoneOffset.UTC);
    }
}
