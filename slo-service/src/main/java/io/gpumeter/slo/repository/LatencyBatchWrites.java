package io.gpumeter.slo.repository;

import io.gpumeter.slo.domain.LatencyBatch;
import io.gpumeter.slo.domain.LatencyHistograms;
import io.gpumeter.slo.domain.MinuteKey;
import io.gpumeter.slo.domain.Sli;
import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import org.HdrHistogram.Histogram;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.gpumeter.slo.repository.LatencyRepository.offset;

/**
 * The statements that write a latency batch, run by {@link LatencyRepository#store} on one connection inside its
 * transaction once the batch's digest is claimed: the services' locks, the merge with what is stored, then the
 * histograms and the request counts.
 */
final class LatencyBatchWrites {

    private LatencyBatchWrites() {
    }

    /** Locks the batch's services in a fixed order, merges the stored histograms in and writes everything. */
    static Uni<Void> write(SqlConnection conn, LatencyBatch batch) {
        return lock(conn, batch.services())
                .chain(() -> mergeStored(conn, batch))
                .chain(() -> writeHistograms(conn, batch))
                .chain(() -> addRequests(conn, batch));
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

    private static Tuple keyTuple(List<MinuteKey> keys) {
        return Tuple.of(keys.stream().map(MinuteKey::service).toArray(String[]::new),
                keys.stream().map(MinuteKey::namespace).toArray(String[]::new),
                keys.stream().map(MinuteKey::pod).toArray(String[]::new),
                keys.stream().map(k -> offset(k.minute())).toArray(OffsetDateTime[]::new));
    }
}
