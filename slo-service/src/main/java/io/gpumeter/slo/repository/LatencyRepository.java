package io.gpumeter.slo.repository;

import io.gpumeter.slo.domain.LatencyBatch;
import io.gpumeter.slo.domain.LatencyHistograms;
import io.gpumeter.slo.domain.MinuteKey;
import io.gpumeter.slo.domain.Sli;
import io.gpumeter.slo.domain.TimeWindow;
import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import org.HdrHistogram.Histogram;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Per-minute latency histograms and request counts in schema slo, written in one transaction per batch. */
@ApplicationScoped
public class LatencyRepository {

    /** One stored histogram of a pod's minute. */
    public record StoredHistogram(Instant minute, String namespace, String pod, byte[] histogram) {
    }

    /** One pod's requests in a minute. */
    public record StoredRequests(Instant minute, long requests, long failed) {
    }

    private final Pool pool;

    public LatencyRepository(Pool pool) {
        this.pool = pool;
    }

    /**
     * Stores a batch unless a body with the same digest was stored before; returns whether it was new. Writers
     * of the same service queue behind each other, so a merged histogram never loses a concurrent write.
     */
    public Uni<Boolean> store(String digest, int records, LatencyBatch batch) {
        return pool.withTransaction(conn -> conn
                .preparedQuery("INSERT INTO slo.latency_batch (digest, records, received_at) VALUES ($1, $2, now())"
                        + " ON CONFLICT DO NOTHING RETURNING 1")
                .execute(Tuple.of(digest, records))
                .chain(claimed -> claimed.rowCount() == 0 ? Uni.createFrom().item(false)
                        : lock(conn, batch.services())
                        .chain(() -> mergeStored(conn, batch))
                        .chain(() -> writeHistograms(conn, batch))
                        .chain(() -> addRequests(conn, batch))
                        .replaceWith(true)));
    }

    private static Uni<Void> lock(SqlConnection conn, Set<String> sortedServices) {
        return conn.preparedQuery("SELECT count(pg_advisory_xact_lock(hashtext('gpumeter.slo.latency/' || s)))"
                        + " FROM (SELECT unnest($1::text[]) AS s ORDER BY 1) AS ordered")
                .execute(Tuple.of(sortedServices.toArray(String[]::new))).replaceWithVoid();
    }

    private static Uni<Void> mergeStored(SqlConnection conn, LatencyBatch batch) {
        List<MinuteKey> keys = new ArrayList<>(batch.histograms().keySet());
        if (keys.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return conn.preparedQuery("""
                        SELECT m.service, m.namespace, m.pod, m.minute, m.sli, m.histogram
                        FROM slo.latency_minute m
                        JOIN unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[]) AS k(service, namespace, pod, minute)
                          ON m.service = k.service AND m.namespace = k.namespace AND m.pod = k.pod AND m.minute = k.minute""")
                .execute(keyTuple(keys))
                .invoke(rows -> {
                    for (Row row : rows) {
                        MinuteKey key = new MinuteKey(row.getString("service"), row.getString("namespace"),
                                row.getString("pod"), row.getOffsetDateTime("minute").toInstant());
                        Histogram into = batch.histograms().get(key).get(Sli.valueOf(row.getString("sli")));
                        if (into != null) {
                            LatencyHistograms.mergeInto(into, row.getBuffer("histogram").getBytes());
                        }
                    }
                })
                .replaceWithVoid();
    }

    private static Uni<Void> writeHistograms(SqlConnection conn, LatencyBatch batch) {
        List<MinuteKey> keys = new ArrayList<>();
        List<String> slis = new ArrayList<>();
        List<Long> samples = new ArrayList<>();
        List<Buffer> encoded = new ArrayList<>();
        for (Map.Entry<MinuteKey, Map<Sli, Histogram>> e : batch.histograms().entrySet()) {
            for (Map.Entry<Sli, Histogram> h : e.getValue().entrySet()) {
                keys.add(e.getKey());
                slis.add(h.getKey().name());
                samples.add(h.getValue().getTotalCount());
                encoded.add(Buffer.buffer(LatencyHistograms.encode(h.getValue())));
            }
        }
        if (keys.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        Tuple args = keyTuple(keys);
        args.addValue(slis.toArray(String[]::new));
        args.addValue(samples.toArray(Long[]::new));
        args.addValue(encoded.toArray(Buffer[]::new));
        return conn.preparedQuery("""
                        INSERT INTO slo.latency_minute (service, namespace, pod, minute, sli, samples, histogram)
                        SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[], $5::text[],
                                             $6::bigint[], $7::bytea[])
                        ON CONFLICT (service, minute, namespace, pod, sli)
                        DO UPDATE SET samples = excluded.samples, histogram = excluded.histogram""")
                .execute(args).replaceWithVoid();
    }

    private static Uni<Void> addRequests(SqlConnection conn, LatencyBatch batch) {
        List<MinuteKey> keys = new ArrayList<>(batch.requests().keySet());
        Tuple args = keyTuple(keys);
        args.addValue(keys.stream().map(k -> batch.requests().get(k).requests()).toArray(Long[]::new));
        args.addValue(keys.stream().map(k -> batch.requests().get(k).failed()).toArray(Long[]::new));
        return conn.preparedQuery("""
                        INSERT INTO slo.request_minute (service, namespace, pod, minute, requests, failed)
                        SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[], $5::bigint[], $6::bigint[])
                        ON CONFLICT (service, minute, namespace, pod)
                        DO UPDATE SET requests = request_minute.requests + excluded.requests,
                                      failed = request_minute.failed + excluded.failed""")
                .execute(args).replaceWithVoid();
    }

    /** A service's stored histograms of one SLI for the minutes starting in the window, by minute. */
    public Uni<List<StoredHistogram>> histograms(String service, Sli sli, TimeWindow window) {
        return pool.preparedQuery("""
                        SELECT minute, namespace, pod, histogram FROM slo.latency_minute
                        WHERE service = $1 AND sli = $2 AND minute >= $3 AND minute < $4
                        ORDER BY minute, namespace, pod""")
                .execute(Tuple.of(service, sli.name(), offset(window.start()), offset(window.end())))
                .map(rows -> {
                    List<StoredHistogram> out = new ArrayList<>();
                    for (Row row : rows) {
                        out.add(new StoredHistogram(row.getOffsetDateTime("minute").toInstant(),
                                row.getString("namespace"), row.getString("pod"),
                                row.getBuffer("histogram").getBytes()));
                    }
                    return out;
                });
    }

    /** A service's requests and failures per minute (all pods summed) for the minutes starting in the window. */
    public Uni<List<StoredRequests>> requests(String service, TimeWindow window) {
        return pool.preparedQuery("""
                        SELECT minute, sum(requests)::bigint AS requests, sum(failed)::bigint AS failed
                        FROM slo.request_minute
                        WHERE service = $1 AND minute >= $2 AND minute < $3
                        GROUP BY minute ORDER BY minute""")
                .execute(Tuple.of(service, offset(window.start()), offset(window.end())))
                .map(rows -> {
                    List<StoredRequests> out = new ArrayList<>();
                    for (Row row : rows) {
                        out.add(new StoredRequests(row.getOffsetDateTime("minute").toInstant(),
                                row.getLong("requests"), row.getLong("failed")));
                    }
                    return out;
                });
    }

    private static Tuple keyTuple(List<MinuteKey> keys) {
        return Tuple.of(keys.stream().map(MinuteKey::service).toArray(String[]::new),
                keys.stream().map(MinuteKey::namespace).toArray(String[]::new),
                keys.stream().map(MinuteKey::pod).toArray(String[]::new),
                keys.stream().map(k -> offset(k.minute())).toArray(OffsetDateTime[]::new));
    }

    private static OffsetDateTime offset(Instant t) {
        return t.atOffset(ZoneOffset.UTC);
    }
}
