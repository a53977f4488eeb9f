package io.gpumeter.ledger.repository;

import io.gpumeter.ledger.usage.domain.CounterIncrease;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The raw readings of the cards' counters (usage_counter_minute) and the per-minute rows the ledger derives from them
 * into usage_minute. The readings are kept per card, field and minute as two arrays (milliseconds into the minute and
 * values, in time order), rewritten whole when a delivery adds to a minute; the derived rows replace what an earlier
 * delivery derived for the same minute.
 */
@ApplicationScoped
public class CounterRepository {

    private static final DateTimeFormatter DAY = DateTimeFormatter.BASIC_ISO_DATE;
    /** The daily partitions this process has made sure of; the retention job drops them with the day's minutes. */
    private final Set<LocalDate> knownPartitions = ConcurrentHashMap.newKeySet();

    /** One minute's readings of one card's counter. */
    public record Readings(String gpuUuid, String field, Instant minute, int[] millis, double[] values) {
    }

    /** What to read: a card's counter over [from, to) of minutes. */
    public record Span(String gpuUuid, String field, Instant from, Instant to) {
    }

    /**
     * Creates the daily partitions of these days when missing, under the lock the minute partitions take. Only days
     * after {@code retained} (the oldest day the minute retention keeps) are remembered as made: the retention job
     * may drop that day's partition at any time, and a later delivery must then look again.
     */
    public Uni<Void> ensurePartitions(SqlConnection conn, Set<LocalDate> wanted, LocalDate retained) {
        Set<LocalDate> days = new TreeSet<>(wanted);
        days.removeAll(knownPartitions);
        if (days.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        StringBuilder ddl = new StringBuilder("SELECT pg_advisory_xact_lock(hashtext('")
                .append(RetentionRepository.PARTITIONS_LOCK).append("'));");
        for (LocalDate day : days) {
            String name = partition(day);
            ddl.append("DO $$BEGIN IF NOT EXISTS (SELECT 1 FROM pg_class WHERE relnamespace = 'ledger'::regnamespace AND relname = '")
                    .append(name).append("') THEN CREATE TABLE ledger.").append(name)
                    .append(" PARTITION OF ledger.usage_counter_minute FOR VALUES FROM ('").append(day)
                    .append("T00:00:00Z') TO ('").append(day.plusDays(1)).append("T00:00:00Z'); END IF; END$$;");
        }
        return conn.query(ddl.toString()).execute()
                .invoke(() -> days.stream().filter(d -> d.isAfter(retained)).forEach(knownPartitions::add))
                .replaceWithVoid();
    }

    /** The name of a day's partition, which retention drops with the day's minute partition. */
    public static String partition(LocalDate day) {
        return "usage_counter_minute_p" + DAY.format(day);
    }

    /** The stored readings of these spans. */
    public Uni<List<Readings>> read(SqlConnection conn, String cluster, List<Span> spans) {
        if (spans.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return conn.preparedQuery("""
                        SELECT c.gpu_uuid, c.field, c.minute, c.millis, c.vals
                        FROM unnest($2::text[], $3::text[], $4::timestamptz[], $5::timestamptz[]) AS r(gpu, field, lo, hi)
                        JOIN ledger.usage_counter_minute c
                          ON c.cluster = $1 AND c.gpu_uuid = r.gpu AND c.field = r.field AND c.minute >= r.lo AND c.minute < r.hi
                        ORDER BY c.gpu_uuid, c.field, c.minute""")
                .execute(Tuple.of(cluster, Columns.strings(spans, Span::gpuUuid), Columns.strings(spans, Span::field),
                        Columns.times(spans, Span::from), Columns.times(spans, Span::to)))
                .map(rows -> {
                    List<Readings> out = new ArrayList<>();
                    for (Row r : rows) {
                        Integer[] millis = r.getArrayOfIntegers("millis");
                        Double[] values = r.getArrayOfDoubles("vals");
                        int[] m = new int[millis.length];
                        double[] v = new double[values.length];
                        for (int i = 0; i < m.length; i++) {
                            m[i] = millis[i];
                            v[i] = values[i];
                        }
                        out.add(new Readings(r.getString("gpu_uuid"), r.getString("field"),
                                r.getOffsetDateTime("minute").toInstant(), m, v));
                    }
                    return out;
                });
    }

    /** Writes these minutes' readings whole, over what was stored for them. */
    public Uni<Void> store(SqlConnection conn, String cluster, List<Readings> rows) {
        if (rows.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        List<Integer> firsts = new ArrayList<>();
        List<Integer> counts = new ArrayList<>();
        List<Integer> millis = new ArrayList<>();
        List<Double> values = new ArrayList<>();
        for (Readings row : rows) {
            firsts.add(millis.size() + 1);
            counts.add(row.millis().length);
            for (int i = 0; i < row.millis().length; i++) {
                millis.add(row.millis()[i]);
                values.add(row.values()[i]);
            }
        }
        return conn.preparedQuery("""
                        INSERT INTO ledger.usage_counter_minute (cluster, gpu_uuid, field, minute, millis, vals)
                        SELECT $1, u.gpu, u.field, u.minute, ($7::int4[])[u.first:u.first + u.n - 1],
                               ($8::float8[])[u.first:u.first + u.n - 1]
                        FROM unnest($2::text[], $3::text[], $4::timestamptz[], $5::int4[], $6::int4[])
                             AS u(gpu, field, minute, first, n)
                        ON CONFLICT (cluster, gpu_uuid, field, minute) DO UPDATE SET millis = excluded.millis,
                            vals = excluded.vals""")
                .execute(Tuple.from(List.of(cluster, Columns.strings(rows, Readings::gpuUuid),
                        Columns.strings(rows, Readings::field), Columns.times(rows, Readings::minute),
                        firsts.toArray(Integer[]::new), counts.toArray(Integer[]::new), millis.toArray(Integer[]::new),
                        values.toArray(Double[]::new))))
                .replaceWithVoid();
    }

    /** One derived minute row: the card's series of a derived field. */
    public record Derived(String gpuUuid, String field, CounterIncrease.Minute minute) {
    }

    /**
     * Writes the derived minutes into usage_minute as the card's (DEVICE) series, replacing what an earlier delivery
     * derived for them: a minute's figure is worked out again from all its readings whenever one is added.
     */
    public Uni<Void> storeDerived(SqlConnection conn, String cluster, List<Derived> rows) {
        if (rows.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return conn.preparedQuery("""
                        INSERT INTO ledger.usage_minute (cluster, gpu_uuid, scope, scope_key, field, minute, sum, max, samples, seconds)
                        SELECT $1, u.gpu, 'DEVICE', '', u.field, u.minute, u.s, u.mx, u.n, u.bits
                        FROM unnest($2::text[], $3::text[], $4::timestamptz[], $5::float8[], $6::float8[], $7::int4[], $8::int8[])
                             AS u(gpu, field, minute, s, mx, n, bits)
                        ON CONFLICT (cluster, gpu_uuid, scope, scope_key, field, minute) DO UPDATE SET sum = excluded.sum,
                            max = excluded.max, samples = excluded.samples, seconds = excluded.seconds""")
                .execute(Tuple.from(List.of(cluster, Columns.strings(rows, Derived::gpuUuid),
                        Columns.strings(rows, Derived::field), Columns.times(rows, d -> d.minute().minute()),
                        Columns.values(rows, d -> d.minute().sum(), Double[]::new),
                        Columns.values(rows, d -> d.minute().max(), Double[]::new),
                        Columns.values(rows, d -> d.minute().samples(), Integer[]::new),
                        Columns.values(rows, d -> d.minute().seconds(), Long[]::new))))
                .replaceWithVoid();
    }
}
