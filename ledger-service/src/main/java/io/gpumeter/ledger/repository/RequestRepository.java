package io.gpumeter.ledger.repository;

import static io.gpumeter.ledger.repository.Columns.strings;
import static io.gpumeter.ledger.repository.Columns.times;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.ledger.allocation.domain.PodRequest;
import io.gpumeter.ledger.hours.domain.GroupDimension;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static io.gpumeter.ledger.repository.FactRepository.toOffset;

/** Pod requests: written with the allocation segments, summed per group for quota reconciliation. */
@ApplicationScoped
public class RequestRepository {

    private final Pool pool;

    public RequestRepository(Pool pool) {
        this.pool = pool;
    }

    /** Replaces the requests of these pods with the freshly derived ones, given as {@link #rows}. */
    public Uni<Void> replace(SqlConnection conn, String cluster, Collection<String> podUids, BulkRows requests) {
        Uni<?> deleted = conn.preparedQuery("DELETE FROM ledger.pod_request WHERE cluster = $1 AND pod_uid = ANY($2)")
                .execute(Tuple.of(cluster, podUids.toArray(String[]::new)));
        if (requests.isEmpty()) {
            return deleted.replaceWithVoid();
        }
        return deleted.chain(() -> conn.preparedQuery(KeptPrepared.BULK_WRITE.sql("""
                        INSERT INTO ledger.pod_request (cluster, pod_uid, namespace, pod, requested_at, until, requested_fraction,
                            tenant, team, project)
                        SELECT $1, u.* FROM unnest($2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::timestamptz[],
                            $7::numeric[], $8::text[], $9::text[], $10::text[]) AS u"""))
                .execute(requests.parameters()))
                .replaceWithVoid();
    }

    /** A cluster's derived requests as the parameters of {@link #replace}'s insert. */
    public static BulkRows rows(String cluster, List<PodRequest> requests) {
        return BulkRows.of(requests, all -> Tuple.from(List.of(cluster, strings(all, PodRequest::podUid),
                strings(all, PodRequest::namespace), strings(all, PodRequest::pod),
                times(all, PodRequest::requestedAt), times(all, PodRequest::until),
                Columns.values(all, PodRequest::requestedFraction, BigDecimal[]::new),
                strings(all, PodRequest::tenant), strings(all, PodRequest::team),
                strings(all, PodRequest::project))));
    }

    /** Requested card-equivalent hours per group, each request clipped to [from, to) and to now. */
    public Uni<Map<String, BigDecimal>> requestedHours(TimeWindow window, List<GroupDimension> dimensions, Instant now) {
        String select = dimensions.stream().map(d -> "coalesce(" + d.column("") + ", 'unknown') AS d" + d.ordinal())
                .collect(Collectors.joining(", "));
        String group = dimensions.stream().map(d -> "d" + d.ordinal()).collect(Collectors.joining(", "));
        Instant cap = now.isBefore(window.end()) ? now : window.end();
        return pool.preparedQuery("SELECT " + select + """
                        , sum(requested_fraction * ledger.clipped_seconds(requested_at, coalesce(until, $3), $1, $2)) / 3600 AS hours
                        FROM ledger.pod_request
                        WHERE requested_at < $2 AND coalesce(until, $3) > $1 AND requested_at < $3
                        GROUP BY """ + " " + group)
                .execute(Tuple.of(toOffset(window.start()), toOffset(window.end()), toOffset(cap)))
                .map(rows -> {
                    Map<String, BigDecimal> out = new HashMap<>();
                    for (Row row : rows) {
                        List<String> values = new ArrayList<>();
                        dimensions.forEach(d -> values.add(row.getString("d" + d.ordinal())));
                        out.put(String.join("/", values), row.getBigDecimal("hours").stripTrailingZeros());
                    }
                    return out;
                });
    }

}
