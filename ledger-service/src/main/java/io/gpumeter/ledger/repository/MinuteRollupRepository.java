package io.gpumeter.ledger.repository;

import io.gpumeter.ledger.usage.domain.MinuteFolds;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.gpumeter.ledger.repository.FactRepository.toOffset;

/**
 * Adds deliveries' values to the minute rollups (ledger.usage_minute). Sums, maxima and counts add up in any order,
 * so deliveries of one cluster write them side by side, without the cluster's ingest lock; what keeps that right is
 * here. Each second of a row counts once: a row's bitmask of seconds says which it holds. Rows are written in key
 * order, so two deliveries that share rows take their row locks in one order and never deadlock.
 */
@ApplicationScoped
public class MinuteRollupRepository {

    /*
     * The statement reads each row's seconds with its own snapshot, and a delivery carrying the same seconds may
     * commit between that read and the upsert. The upsert therefore adds to a row only when none of the seconds it
     * brings are in the row as it stands once locked (the newest version, under READ COMMITTED). Should a concurrent
     * delivery have got to a row first, the statement is undone to a savepoint and run again, its new snapshot
     * seeing that delivery's seconds; the counts of rows offered and rows written tell. (Which rows were skipped is
     * not looked for: joining the rows written back to those offered costs a nested loop over both, as the planner
     * cannot tell their size.)
     */
    private static final String UPSERT = """
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
                INSERT INTO ledger.usage_minute AS m (cluster, gpu_uuid, scope, scope_key, field, minute, sum, max, samples, seconds)
                SELECT $1, gpu, scope, skey, field, minute, s, mx, n, bits FROM rollup
                ORDER BY gpu, scope, skey, field, minute
                ON CONFLICT (cluster, gpu_uuid, scope, scope_key, field, minute) DO UPDATE SET
                    sum = m.sum + excluded.sum, max = greatest(m.max, excluded.max),
                    samples = m.samples + excluded.samples, seconds = m.seconds | excluded.seconds
                WHERE (m.seconds & excluded.seconds) = 0
                RETURNING 1)
            SELECT (SELECT coalesce(sum(n), 0)::int FROM rollup) AS added, (SELECT count(*) FROM rollup) AS offered,
                   (SELECT count(*) FROM stored) AS written""";

    /**
     * Folds a delivery's minute rows into the rollups; returns how many values were new. A second already in a
     * row's bitmask adds nothing, so a delivery sent twice, or overlapping an earlier or a concurrent one, counts
     * each second once. A row whose seconds are all new adds the sum, max and count worked out in Java; a row
     * overlapping the stored one is summed again in SQL over its new seconds only, from its slice of the per-second
     * arrays.
     */
    public Uni<Integer> addMinutes(SqlConnection conn, String cluster, MinuteFolds folds) {
        if (folds.rows().isEmpty()) {
            return Uni.createFrom().item(0);
        }
        Tuple arguments = arguments(cluster, new ArrayList<>(folds.rows().entrySet()));
        return conn.query("SAVEPOINT minute_rollups").execute().chain(() -> upsert(conn, arguments));
    }

    private Uni<Integer> upsert(SqlConnection conn, Tuple arguments) {
        return conn.preparedQuery(UPSERT).execute(arguments).chain(result -> {
            Row row = result.iterator().next();
            if (row.getLong("written").longValue() == row.getLong("offered").longValue()) {
                return Uni.createFrom().item(row.getInteger("added"));
            }
            return conn.query("ROLLBACK TO SAVEPOINT minute_rollups").execute().chain(() -> upsert(conn, arguments));
        });
    }

    private static Tuple arguments(String cluster, List<Map.Entry<MinuteFolds.Key, MinuteFolds.Fold>> rows) {
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
        for (int i = 0; i < n; i++) {
            MinuteFolds.Key k = rows.get(i).getKey();
            MinuteFolds.Fold f = rows.get(i).getValue();
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
        }
        return Tuple.from(List.of(cluster, gpus, scopes, keys, fields, minutes, bits, sums, maxes, counts, firsts,
                seconds.toArray(Integer[]::new), values.toArray(Double[]::new)));
    }
}
