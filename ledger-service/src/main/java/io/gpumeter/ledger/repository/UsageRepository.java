package io.gpumeter.ledger.repository;

import io.gpumeter.ledger.config.LedgerConfig;
import io.gpumeter.ledger.usage.domain.MinuteFolds;
import io.gpumeter.ledger.usage.domain.UsagePoint;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

import static io.gpumeter.ledger.repository.FactRepository.toOffset;

/**
 * The used ledger: per-minute rollups of usage series (the pod-to-card bindings the exporters reveal are
 * {@link GpuBindingRepository}'s).
 */
@ApplicationScoped
public class UsageRepository {

    private static final DateTimeFormatter DAY = DateTimeFormatter.BASIC_ISO_DATE;
    private final Set<LocalDate> knownPartitions = ConcurrentHashMap.newKeySet();
    private final Pool pool;
    private final Clock clock;
    private final Duration minuteRetention;

    public UsageRepository(Pool pool, Clock clock, LedgerConfig config) {
        this.pool = pool;
        this.clock = clock;
        this.minuteRetention = config.retention().minutes();
    }

    /**
     * Creates the daily partitions of these days, once per day and process. A minute row may be rewritten by later
     * deliveries of its minute; free room in each page lets PostgreSQL do that without touching the index. A day the
     * minute retention may already have folded into hours and dropped (by this or another replica) is never taken
     * as known: a late delivery for it creates its partition again under the same lock the retention job takes, and
     * the job's next run folds those minutes into the hours too.
     */
    public Uni<Void> ensurePartitions(SqlConnection conn, Set<LocalDate> wanted) {
        Set<LocalDate> days = new TreeSet<>(wanted);
        days.removeAll(knownPartitions);
        if (days.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        StringBuilder ddl = new StringBuilder("SELECT pg_advisory_xact_lock(hashtext('gpumeter.ledger.partitions'));");
        for (LocalDate day : days) {
            // Created only when missing: a late day's partition is looked for on every delivery, without a notice.
            String name = "ledger.usage_minute_p" + DAY.format(day);
            // pg_class read with the statement's snapshot, not to_regclass's cache: a partition another replica's
            // retention dropped while this transaction waited for the lock is seen gone.
            ddl.append("DO $$BEGIN IF NOT EXISTS (SELECT 1 FROM pg_class WHERE relnamespace = 'ledger'::regnamespace AND relname = '")
                    .append(name.substring("ledger.".length())).append("') THEN CREATE TABLE ").append(name)
                    .append(" PARTITION OF ledger.usage_minute FOR VALUES FROM ('").append(day).append("T00:00:00Z') TO ('")
                    .append(day.plusDays(1)).append("T00:00:00Z') WITH (fillfactor = 70); END IF; END$$;");
        }
        LocalDate retained = LocalDate.ofInstant(clock.instant().minus(minuteRetention), ZoneOffset.UTC);
        return conn.query(ddl.toString()).execute()
                .invoke(() -> days.stream().filter(d -> d.isAfter(retained)).forEach(knownPartitions::add))
                .replaceWithVoid();
    }

    /**
     * Folds a delivery's minute rows into the rollups; returns how many values were new. A second already in a
     * row's bitmask adds nothing, so a delivery sent twice, or overlapping an earlier one, counts each second once.
     * A row whose seconds are all new adds the sum, max and count worked out in Java; a row overlapping the stored
     * one is summed again in SQL over its new seconds only, from its slice of the per-second arrays.
     */
    public Uni<Integer> addMinutes(SqlConnection conn, String cluster, MinuteFolds folds) {
        Map<MinuteFolds.Key, MinuteFolds.Fold> rows = folds.rows();
        if (rows.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        int n = rows.size();
        String[] gpus = new String[n];
        String[] scopes = new String[n];
        String[] keys = new String[n];
        String[] fields = new String[n];
        OffsetDateTime[] minutes = new OffsetDateTime[n];
        Long[] bits = new Long[n];
        Double[] sums = new Double[n];
        Double[] maxes = new Double[n];
        Integer[] counts = new Integer[n];
        Integer[] firsts = new Integer[n];
        List<Integer> seconds = new ArrayList<>();
        List<Double> values = new ArrayList<>();
        int i = 0;
        for (Map.Entry<MinuteFolds.Key, MinuteFolds.Fold> row : rows.entrySet()) {
            MinuteFolds.Key k = row.getKey();
            MinuteFolds.Fold f = row.getValue();
            gpus[i] = k.gpuUuid();
            scopes[i] = k.scope();
            keys[i] = k.scopeKey();
            fields[i] = k.field();
            minutes[i] = toOffset(k.minute());
            bits[i] = f.seconds();
            sums[i] = f.sum();
            maxes[i] = f.max();
            counts[i] = f.count();
            firsts[i] = seconds.size() + 1;
            for (int s = 0; s < 60; s++) {
                if ((f.seconds() & (1L << s)) != 0) {
                    seconds.add(s);
                    values.add(f.value(s));
                }
            }
            i++;
        }
        return conn.preparedQuery("""
                        WITH incoming AS (
                            SELECT * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[],
                                                 $7::int8[], $8::float8[], $9::float8[], $10::int4[], $11::int4[])
                                 AS u(gpu, scope, skey, field, minute, bits, s, mx, n, first)),
                        seen AS (
                            SELECT i.*, coalesce(m.seconds, 0) AS have FROM incoming i
                            LEFT JOIN ledger.usage_minute m
                              ON m.cluster = $1 AND m.gpu_uuid = i.gpu AND m.scope = i.scope AND m.scope_key = i.skey
                             AND m.field = i.field AND m.minute = i.minute),
                        rollup AS (
                            SELECT gpu, scope, skey, field, minute, bits, s, mx, n FROM seen WHERE (have & bits) = 0
                            UNION ALL
                            SELECT o.gpu, o.scope, o.skey, o.field, o.minute, o.bits & ~o.have, f.s, f.mx, f.n
                            FROM seen o CROSS JOIN LATERAL (
                                SELECT sum(x.v) AS s, max(x.v) AS mx, count(*)::int AS n
                                FROM unnest(($12::int4[])[o.first:o.first + o.n - 1], ($13::float8[])[o.first:o.first + o.n - 1])
                                     AS x(sec, v)
                                WHERE (o.have & (1::bigint << x.sec)) = 0) f
                            WHERE (o.have & o.bits) <> 0 AND (o.bits & ~o.have) <> 0),
                        stored AS (
                            INSERT INTO ledger.usage_minute (cluster, gpu_uuid, scope, scope_key, field, minute, sum, max, samples, seconds)
                            SELECT $1, gpu, scope, skey, field, minute, s, mx, n, bits FROM rollup
                            ON CONFLICT (cluster, gpu_uuid, scope, scope_key, field, minute) DO UPDATE SET
                                sum = usage_minute.sum + excluded.sum, max = greatest(usage_minute.max, excluded.max),
                                samples = usage_minute.samples + excluded.samples,
                                seconds = usage_minute.seconds | excluded.seconds
                            RETURNING 1)
                        SELECT coalesce(sum(n), 0)::int AS added FROM rollup""")
                .execute(Tuple.from(List.of(cluster, gpus, scopes, keys, fields, minutes, bits, sums, maxes, counts, firsts,
                        seconds.toArray(Integer[]::new), values.toArray(Double[]::new))))
                .map(result -> result.iterator().next().getInteger("added"));
    }

    /**
     * The rollups of one card's series over a window, optionally one field only: minutes where the minute retention
     * keeps them, hours before it (an hour overlapping the window's start is included whole).
     */
    public Uni<List<UsagePoint>> series(String gpuUuid, String field, Instant from, Instant to) {
        return pool.preparedQuery("""
                        SELECT scope, scope_key, field, at, extract(epoch FROM span)::int AS span_seconds, mean, max, samples FROM ledger.usage_rollup
                        WHERE gpu_uuid = $1 AND at >= date_trunc('hour', $2::timestamptz) AND at + span > $2 AND at < $3
                          AND ($4::text IS NULL OR field = $4)
                        ORDER BY field, scope, scope_key, at""")
                .execute(Tuple.of(gpuUuid, toOffset(from), toOffset(to), field))
                .map(rows -> {
                    List<UsagePoint> out = new ArrayList<>();
                    rows.forEach(r -> out.add(new UsagePoint(r.getString("scope"), r.getString("scope_key"), r.getString("field"),
                            r.getOffsetDateTime("at").toInstant(), r.getDouble("mean"), r.getDouble("max"),
                            r.getInteger("samples"), spanSeconds(r))));
                    return out;
                });
    }

    /**
     * The rollups (minutes, else hours) of several cards' series over a window, of these fields only (every field when
     * null), by card.
     */
    public Uni<Map<String, List<UsagePoint>>> seriesOfCards(List<String> gpuUuids, List<String> fields, Instant from,
                                                            Instant to) {
        return pool.preparedQuery("""
                        SELECT gpu_uuid, scope, scope_key, field, at, extract(epoch FROM span)::int AS span_seconds, mean, max, samples FROM ledger.usage_rollup
                        WHERE gpu_uuid = ANY($1) AND at >= date_trunc('hour', $2::timestamptz) AND at + span > $2 AND at < $3
                          AND ($4::text[] IS NULL OR field = ANY($4))
                        ORDER BY gpu_uuid, field, scope, scope_key, at""")
                .execute(Tuple.of(gpuUuids.toArray(String[]::new), toOffset(from), toOffset(to),
                        fields == null ? null : fields.toArray(String[]::new)))
                .map(rows -> {
                    Map<String, List<UsagePoint>> out = new HashMap<>();
                    rows.forEach(r -> out.computeIfAbsent(r.getString("gpu_uuid"), g -> new ArrayList<>()).add(
                            new UsagePoint(r.getString("scope"), r.getString("scope_key"), r.getString("field"),
                                    r.getOffsetDateTime("at").toInstant(), r.getDouble("mean"), r.getDouble("max"),
                                    r.getInteger("samples"), spanSeconds(r))));
                    return out;
                });
    }

    private static int spanSeconds(Row r) {
        return r.getInteger("span_seconds");
    }
}
