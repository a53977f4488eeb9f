package io.gpumeter.ledger.governance.repository;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static io.gpumeter.ledger.repository.Columns.offset;

/**
 * What the allocations say around failures: the GPU-hours and GPU pod starts failures are counted against (per group,
 * or on a change's nodes), and the tenants a node's or a card's failure touched.
 */
@ApplicationScoped
public class FailureExposureRepository {

    private final Pool pool;

    public FailureExposureRepository(Pool pool) {
        this.pool = pool;
    }

    /**
     * Allocated card-equivalent hours in [from, to) on these nodes of a cluster, as {@link #gpuHours} counts them,
     * and the GPU pods whose allocation began there.
     */
    public Uni<NodeHours> hoursOn(Instant from, Instant to, Instant now, String cluster, Collection<String> nodes) {
        Instant cap = now.isBefore(to) ? now : to;
        return pool.preparedQuery("""
                        SELECT sum(fraction * ledger.clipped_seconds(seg_start, coalesce(seg_end, $5), $3, $4)) / 3600 AS h,
                               count(DISTINCT pod_uid) FILTER (WHERE since >= $3 AND since < $4) AS starts
                        FROM ledger.allocation_segment
                        WHERE cluster = $1 AND node = ANY($2) AND seg_start < $4 AND coalesce(seg_end, $5) > $3 AND seg_start < $5""")
                .execute(Tuple.from(List.of(cluster, nodes.toArray(String[]::new), offset(from), offset(to), offset(cap))))
                .map(rows -> {
                    Row r = rows.iterator().next();
                    BigDecimal h = r.getBigDecimal("h");
                    Long starts = r.getLong("starts");
                    return new NodeHours(h == null ? BigDecimal.ZERO : h, starts == null ? 0 : starts);
                });
    }

    /** GPU-hours and GPU pod starts of a set of nodes over a window. */
    public record NodeHours(BigDecimal gpuHours, long podStarts) {
    }

    /**
     * Allocated card-equivalent hours in [from, to) per group (node, tenant, or one total under ""), each segment
     * clipped to the window and a held unit counted up to the earlier of {@code to} and now.
     */
    public Uni<Map<String, BigDecimal>> gpuHours(Instant from, Instant to, Instant now, String cluster, String column) {
        String group = column == null ? "''" : "coalesce(" + column + ", 'unknown')";
        Instant cap = now.isBefore(to) ? now : to;
        return pool.preparedQuery("SELECT " + group + """
                         AS g, sum(fraction * ledger.clipped_seconds(seg_start, coalesce(seg_end, $3), $1, $2)) / 3600 AS h
                        FROM ledger.allocation_segment
                        WHERE seg_start < $2 AND coalesce(seg_end, $3) > $1 AND seg_start < $3 AND ($4::text IS NULL OR cluster = $4)
                        GROUP BY 1""")
                .execute(Tuple.of(offset(from), offset(to), offset(cap), cluster))
                .map(rows -> {
                    Map<String, BigDecimal> out = new HashMap<>();
                    rows.forEach(r -> out.put(r.getString("g"), r.getBigDecimal("h") == null ? BigDecimal.ZERO : r.getBigDecimal("h")));
                    return out;
                });
    }

    /** GPU pods whose allocation began in [from, to), per group. */
    public Uni<Map<String, Long>> podStarts(Instant from, Instant to, String cluster, String column) {
        String group = column == null ? "''" : "coalesce(" + column + ", 'unknown')";
        return pool.preparedQuery("SELECT " + group + """
                         AS g, count(DISTINCT pod_uid) AS n FROM ledger.allocation_segment
                        WHERE since >= $1 AND since < $2 AND ($3::text IS NULL OR cluster = $3)
                        GROUP BY 1""")
                .execute(Tuple.of(offset(from), offset(to), cluster))
                .map(rows -> {
                    Map<String, Long> out = new HashMap<>();
                    rows.forEach(r -> out.put(r.getString("g"), r.getLong("n")));
                    return out;
                });
    }

    /** The tenants holding any unit on a node at an instant. */
    public Uni<Set<String>> tenantsOnNode(String cluster, String node, Instant at) {
        return pool.preparedQuery("""
                        SELECT DISTINCT tenant FROM ledger.allocation_segment
                        WHERE cluster = $1 AND node = $2 AND seg_start <= $3 AND (seg_end IS NULL OR seg_end > $3)""")
                .execute(Tuple.of(cluster, node, offset(at)))
                .map(FailureExposureRepository::tenants);
    }

    /** The tenants holding a unit of a card at an instant: by its UUID, or on its node where the card is not known. */
    public Uni<Set<String>> tenantsOnCard(String cluster, String node, String uuid, Instant at) {
        return pool.preparedQuery("""
                        SELECT DISTINCT tenant FROM ledger.allocation_segment
                        WHERE cluster = $1 AND (gpu_uuid = $3 OR gpu_uuid IS NULL AND node = $2)
                          AND seg_start <= $4 AND (seg_end IS NULL OR seg_end > $4)""")
                .execute(Tuple.of(cluster, node, uuid, offset(at)))
                .map(FailureExposureRepository::tenants);
    }

    private static Set<String> tenants(Iterable<Row> rows) {
        Set<String> out = new TreeSet<>();
        rows.forEach(r -> out.add(r.getString("tenant")));
        return out;
    }
}
