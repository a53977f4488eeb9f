package io.gpumeter.slo.repository;

import io.gpumeter.slo.domain.LatencyHistograms;
import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import org.HdrHistogram.Histogram;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.gpumeter.slo.repository.LatencyRepository.offset;

/**
 * The latency tables' retention, one service and one hour per transaction: a service's minutes of an hour become
 * one row per pod and SLI (histograms merged, requests and failures added, {@code minutes} the minutes folded), under
 * the same per-service lock the intake takes, so a delivery for that hour either lands before the fold and is folded
 * or after it and stays a minute row beside the hour. How far each service is folded is kept in
 * {@code slo.latency_fold}.
 */
@ApplicationScoped
public class LatencyRetentionRepository {

    private final Pool pool;

    public LatencyRetentionRepository(Pool pool) {
        this.pool = pool;
    }

    /** Every service with latency or request minutes, read from the keys' first column without scanning the tables. */
    public Uni<List<String>> services() {
        return pool.query("""
                        WITH RECURSIVE s(service) AS (
                            (SELECT service FROM slo.request_minute ORDER BY service LIMIT 1)
                            UNION ALL
                            SELECT (SELECT r.service FROM slo.request_minute r WHERE r.service > s.service
                                    ORDER BY r.service LIMIT 1) FROM s WHERE s.service IS NOT NULL),
                        l(service) AS (
                            (SELECT service FROM slo.latency_minute ORDER BY service LIMIT 1)
                            UNION ALL
                            SELECT (SELECT m.service FROM slo.latency_minute m WHERE m.service > l.service
                                    ORDER BY m.service LIMIT 1) FROM l WHERE l.service IS NOT NULL)
                        SELECT service FROM s WHERE service IS NOT NULL
                        UNION SELECT service FROM l WHERE service IS NOT NULL ORDER BY 1""")
                .execute().map(rows -> {
                    List<String> out = new ArrayList<>();
                    rows.forEach(r -> out.add(r.getString("service")));
                    return out;
                });
    }

    /**
     * The hour the service's next fold starts at: where the last fold stopped, or the hour of its oldest minute not
     * folded yet, whichever is later; empty when it has nothing before {@code before}.
     */
    public Uni<Optional<Instant>> nextHour(String service, Instant before) {
        return pool.preparedQuery("""
                        SELECT least(
                            (SELECT min(minute) FROM slo.latency_minute WHERE service = $1 AND minute >= coalesce(f.folded_before, '-infinity')
                               AND minute < $2 AND minutes = 1),
                            (SELECT min(minute) FROM slo.request_minute WHERE service = $1 AND minute >= coalesce(f.folded_before, '-infinity')
                               AND minute < $2 AND minutes = 1)) AS next
                        FROM (SELECT (SELECT folded_before FROM slo.latency_fold WHERE service = $1) AS folded_before) f""")
                .execute(Tuple.of(service, offset(before)))
                .map(rows -> Optional.ofNullable(rows.iterator().next().getOffsetDateTime("next"))
                        .map(t -> t.toInstant().truncatedTo(ChronoUnit.HOURS)));
    }

    /** Folds the service's minutes of one hour; answers how many minute rows it replaced. */
    public Uni<Long> foldHour(String service, Instant hour) {
        Instant end = hour.plus(Duration.ofHours(1));
        return pool.withTransaction(conn -> conn
                .preparedQuery("SELECT pg_advisory_xact_lock(hashtext('gpumeter.slo.latency/' || $1))")
                .execute(Tuple.of(service))
                .chain(() -> foldHistograms(conn, service, hour, end))
                .chain(histograms -> foldRequests(conn, service, hour, end).map(requests -> histograms + requests))
                .call(() -> conn.preparedQuery("""
                                INSERT INTO slo.latency_fold (service, folded_before) VALUES ($1, $2)
                                ON CONFLICT (service) DO UPDATE SET folded_before = greatest(latency_fold.folded_before,
                                                                                             excluded.folded_before)""")
                        .execute(Tuple.of(service, offset(end)))));
    }

    private static Uni<Long> foldHistograms(SqlConnection conn, String service, Instant hour, Instant end) {
        return conn.preparedQuery("""
                        DELETE FROM slo.latency_minute WHERE service = $1 AND minute >= $2 AND minute < $3
                        RETURNING namespace, pod, sli, minutes, histogram""")
                .execute(Tuple.of(service, offset(hour), offset(end)))
                .chain(rows -> {
                    Map<List<String>, Histogram> merged = new LinkedHashMap<>();
                    Map<List<String>, Integer> minutes = new LinkedHashMap<>();
                    for (Row row : rows) {
                        List<String> key = List.of(row.getString("namespace"), row.getString("pod"), row.getString("sli"));
                        LatencyHistograms.mergeInto(merged.computeIfAbsent(key, k -> LatencyHistograms.empty()),
                                row.getBuffer("histogram").getBytes());
                        minutes.merge(key, (int) row.getShort("minutes"), Integer::sum);
                    }
                    if (merged.isEmpty()) {
                        return Uni.createFrom().item(0L);
                    }
                    List<String> namespaces = new ArrayList<>();
                    List<String> pods = new ArrayList<>();
                    List<String> slis = new ArrayList<>();
                    List<Long> samples = new ArrayList<>();
                    List<Short> counts = new ArrayList<>();
                    List<Buffer> encoded = new ArrayList<>();
                    merged.forEach((key, h) -> {
                        namespaces.add(key.get(0));
                        pods.add(key.get(1));
                        slis.add(key.get(2));
                        samples.add(h.getTotalCount());
                        counts.add((short) Math.min(60, minutes.get(key)));
                        encoded.add(Buffer.buffer(LatencyHistograms.encode(h)));
                    });
                    long replaced = rows.rowCount();
                    return conn.preparedQuery("""
                                    INSERT INTO slo.latency_minute (service, namespace, pod, minute, sli, samples, histogram, minutes)
                                    SELECT $1, n, p, $2, s, c, h, m
                                    FROM unnest($3::text[], $4::text[], $5::text[], $6::bigint[], $7::bytea[], $8::smallint[])
                                         AS u(n, p, s, c, h, m)""")
                            .execute(Tuple.from(List.of(service, offset(hour), namespaces.toArray(String[]::new),
                                    pods.toArray(String[]::new), slis.toArray(String[]::new), samples.toArray(Long[]::new),
                                    encoded.toArray(Buffer[]::new), counts.toArray(Short[]::new))))
                            .replaceWith(replaced);
                });
    }

    private static Uni<Long> foldRequests(SqlConnection conn, String service, Instant hour, Instant end) {
        return conn.preparedQuery("""
                        WITH gone AS (
                            DELETE FROM slo.request_minute WHERE service = $1 AND minute >= $2 AND minute < $3
                            RETURNING namespace, pod, requests, failed, minutes),
                        folded AS (
                            INSERT INTO slo.request_minute (service, namespace, pod, minute, requests, failed, minutes)
                            SELECT $1, namespace, pod, $2, sum(requests), sum(failed), least(60, sum(minutes))
                            FROM gone GROUP BY namespace, pod
                            RETURNING 1)
                        SELECT (SELECT count(*) FROM gone) AS replaced, (SELECT count(*) FROM folded) AS written""")
                .execute(Tuple.of(service, offset(hour), offset(end)))
                .map(rows -> rows.iterator().next().getLong("replaced"));
    }

    /**
     * Deletes every row, minute or hour, of the latency tables older than {@code before}, and the engine gauges'
     * minutes too (they are not folded: a token counter's restart inside an hour would be lost); answers how many.
     */
    public Uni<Long> dropBefore(Instant before) {
        return pool.preparedQuery("""
                        WITH l AS (DELETE FROM slo.latency_minute WHERE minute < $1 RETURNING 1),
                             r AS (DELETE FROM slo.request_minute WHERE minute < $1 RETURNING 1),
                             g AS (DELETE FROM slo.engine_gauge_minute WHERE minute < $1 RETURNING 1)
                        SELECT (SELECT count(*) FROM l) + (SELECT count(*) FROM r) + (SELECT count(*) FROM g) AS dropped""")
                .execute(Tuple.of(offset(before)))
                .map(rows -> rows.iterator().next().getLong("dropped"));
    }
}
