package io.gpumeter.slo.repository;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.slo.domain.LatencyBatch;
import io.gpumeter.slo.domain.PodMinute;
import io.gpumeter.slo.domain.Sli;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** Per-minute latency histograms and request counts in schema slo, written in one transaction per batch. */
@ApplicationScoped
public class LatencyRepository {

    /** One stored histogram of a pod's minute. */
    public record StoredHistogram(Instant minute, String namespace, String pod, byte[] histogram) {
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
                        : LatencyBatchWrites.write(conn, batch).replaceWith(true)));
    }

    /**
     * A service's stored histograms of one SLI for the minutes starting in the window, by minute: the service of one
     * namespace, or (null) of every namespace that reports the name.
     */
    public Uni<List<StoredHistogram>> histograms(String service, String namespace, Sli sli, TimeWindow window) {
        return pool.preparedQuery("""
                        SELECT minute, namespace, pod, histogram FROM slo.latency_minute
                        WHERE service = $1 AND sli = $2 AND minute >= $3 AND minute < $4
                          AND ($5::text IS NULL OR namespace = $5)
                        ORDER BY minute, namespace, pod""")
                .execute(Tuple.from(Arrays.asList(service, sli.name(), offset(window.start()), offset(window.end()),
                        namespace)))
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

    /**
     * The namespaces whose pods reported a service in the minutes starting in the window, or (null) in any stored
     * minute, in name order: more than one means the name alone does not say which service is meant.
     */
    public Uni<List<String>> namespacesOf(String service, TimeWindow window) {
        return pool.preparedQuery("""
                        SELECT DISTINCT namespace FROM slo.request_minute
                        WHERE service = $1 AND ($2::timestamptz IS NULL OR minute >= $2)
                          AND ($3::timestamptz IS NULL OR minute < $3)
                        ORDER BY namespace""")
                .execute(Tuple.from(Arrays.asList(service, window == null ? null : offset(window.start()),
                        window == null ? null : offset(window.end()))))
                .map(rows -> {
                    List<String> out = new ArrayList<>();
                    rows.forEach(r -> out.add(r.getString("namespace")));
                    return out;
                });
    }

    /** One pod's requests in a minute, with its namespace and name. */
    public record PodRequests(Instant minute, String namespace, String pod, long requests) {
    }

    /** A service's requests per pod and minute for the minutes starting in the window; namespace as for histograms. */
    public Uni<List<PodRequests>> podRequests(String service, String namespace, TimeWindow window) {
        return pool.preparedQuery("""
                        SELECT minute, namespace, pod, requests FROM slo.request_minute
                        WHERE service = $1 AND minute >= $2 AND minute < $3 AND ($4::text IS NULL OR namespace = $4)
                        ORDER BY minute, namespace, pod""")
                .execute(Tuple.from(Arrays.asList(service, offset(window.start()), offset(window.end()), namespace)))
                .map(rows -> {
                    List<PodRequests> out = new ArrayList<>();
                    for (Row row : rows) {
                        out.add(new PodRequests(row.getOffsetDateTime("minute").toInstant(), row.getString("namespace"),
                                row.getString("pod"), row.getLong("requests")));
                    }
                    return out;
                });
    }

    /**
     * The pods ("namespace/pod") that reported requests of a service in the minutes starting in the window: the service
     * of one namespace, or (null) of every namespace that reports the name.
     */
    public Uni<List<String>> podsOf(String service, String namespace, TimeWindow window) {
        return pool.preparedQuery("""
                        SELECT DISTINCT namespace || '/' || pod AS pod_key FROM slo.request_minute
                        WHERE service = $1 AND minute >= $2 AND minute < $3 AND ($4::text IS NULL OR namespace = $4)
                        ORDER BY pod_key""")
                .execute(Tuple.from(Arrays.asList(service, offset(window.start()), offset(window.end()), namespace)))
                .map(rows -> {
                    List<String> out = new ArrayList<>();
                    rows.forEach(r -> out.add(r.getString("pod_key")));
                    return out;
                });
    }

    /** Which of these "namespace/pod" keys reported requests of any service in the window. */
    public Uni<Set<String>> podsWithRequests(Set<String> podKeys, TimeWindow window) {
        if (podKeys.isEmpty()) {
            return Uni.createFrom().item(Set.of());
        }
        return pool.preparedQuery("""
                        SELECT DISTINCT namespace || '/' || pod AS pod_key FROM slo.request_minute
                        WHERE minute >= $2 AND minute < $3 AND namespace || '/' || pod = ANY($1)""")
                .execute(Tuple.of(podKeys.toArray(String[]::new), offset(window.start()), offset(window.end())))
                .map(rows -> {
                    Set<String> out = new TreeSet<>();
                    rows.forEach(r -> out.add(r.getString("pod_key")));
                    return out;
                });
    }

    /**
     * A pod's requests in one UTC hour: the first minute of the hour it served the selection (whatever the query
     * window, so a pod's tenant is always read at the same instant) and its minutes with requests in the window.
     */
    public record PodHour(String namespace, String pod, Instant hour, Instant firstMinute, long minutes) {

        public String podKey() {
            return namespace + "/" + pod;
        }
    }

    /**
     * The pods with requests in the window, per hour, of one service and/or namespace or (null) any.
     */
    public Uni<List<PodHour>> podHours(String service, String namespace, TimeWindow window) {
        Instant firstHour = window.start().truncatedTo(ChronoUnit.HOURS);
        Instant endHour = window.end().truncatedTo(ChronoUnit.HOURS);
        Instant hoursEnd = endHour.equals(window.end()) ? endHour : endHour.plus(1, ChronoUnit.HOURS);
        return pool.preparedQuery("""
                        SELECT namespace, pod, to_timestamp(floor(extract(epoch FROM minute) / 3600) * 3600) AS hour,
                               min(minute) AS first_minute,
                               count(DISTINCT minute) FILTER (WHERE minutes = 1 AND minute >= $5 AND minute < $6)
                                 + coalesce(max(minutes) FILTER (WHERE minutes > 1 AND minute >= $5 AND minute < $6), 0)
                                 AS minutes
                        FROM slo.request_minute
                        WHERE minute >= $1 AND minute < $2 AND ($3::text IS NULL OR service = $3)
                          AND ($4::text IS NULL OR namespace = $4)
                        GROUP BY 1, 2, 3
                        HAVING count(*) FILTER (WHERE minute >= $5 AND minute < $6) > 0
                        ORDER BY 1, 2, 3""")
                .execute(Tuple.from(Arrays.asList(offset(firstHour), offset(hoursEnd), service, namespace,
                        offset(window.start()), offset(window.end()))))
                .map(rows -> {
                    List<PodHour> out = new ArrayList<>();
                    for (Row row : rows) {
                        out.add(new PodHour(row.getString("namespace"), row.getString("pod"),
                                row.getOffsetDateTime("hour").toInstant(),
                                row.getOffsetDateTime("first_minute").toInstant(), row.getLong("minutes")));
                    }
                    return out;
                });
    }

    /**
     * Pod-minutes in the window of one service or (null) any, of one namespace or (null) any, of the given pods
     * ("namespace/pod") or (null) all: the SLI's histograms for a latency SLI, requests and failures for AVAILABILITY.
     */
    public Uni<List<PodMinute>> podMinutes(Sli sli, String service, String namespace, Collection<String> podKeys,
                                           TimeWindow window) {
        if (podKeys != null && podKeys.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        // a latency SLI reads its histograms ($1 = the SLI), AVAILABILITY the request counts
        int n = sli.isLatency() ? 1 : 0;
        List<Object> args = new ArrayList<>();
        String sql;
        if (sli.isLatency()) {
            args.add(sli.name());
            sql = "SELECT service, namespace, pod, minute, samples AS requests, 0::bigint AS failed, histogram"
                    + " FROM slo.latency_minute WHERE sli = $1 AND ";
        } else {
            sql = "SELECT service, namespace, pod, minute, requests, failed, NULL::bytea AS histogram"
                    + " FROM slo.request_minute WHERE ";
        }
        sql += "minute >= $" + (n + 1) + " AND minute < $" + (n + 2)
                + " AND ($" + (n + 3) + "::text IS NULL OR service = $" + (n + 3) + ")"
                + " AND ($" + (n + 4) + "::text IS NULL OR namespace = $" + (n + 4) + ")";
        args.addAll(Arrays.asList(offset(window.start()), offset(window.end()), service, namespace));
        if (podKeys != null) {
            sql += " AND (namespace, pod) IN (SELECT * FROM unnest($" + (n + 5) + "::text[], $" + (n + 6)
                    + "::text[]))";
            args.add(podKeys.stream().map(k -> k.substring(0, k.indexOf('/'))).toArray(String[]::new));
            args.add(podKeys.stream().map(k -> k.substring(k.indexOf('/') + 1)).toArray(String[]::new));
        }
        sql += " ORDER BY minute, service, namespace, pod";
        return pool.preparedQuery(sql).execute(Tuple.from(args)).map(rows -> {
            List<PodMinute> out = new ArrayList<>();
            for (Row row : rows) {
                var h = row.getBuffer("histogram");
                out.add(new PodMinute(row.getString("service"), row.getString("namespace"), row.getString("pod"),
                        row.getOffsetDateTime("minute").toInstant(), row.getLong("requests"), row.getLong("failed"),
                        h == null ? null : h.getBytes()));
            }
            return out;
        });
    }

    static OffsetDateTime offset(Instant t) {
        return t.atOffset(ZoneOffset.UTC);
    }
}
