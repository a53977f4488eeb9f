package io.gpumeter.ledger.repository;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static io.gpumeter.ledger.repository.FactRepository.toOffset;

/** The fleet figures behind the ledger's gauges, one small aggregate each. */
@ApplicationScoped
public class GaugeRepository {

    /** Card-equivalents of one cluster, per unit kind (or, for use, in total). */
    public record Figure(String cluster, String kind, double value) {
    }

    private final Pool pool;

    public GaugeRepository(Pool pool) {
        this.pool = pool;
    }

    /** Card-equivalents held at {@code at}, per cluster and unit kind. */
    public Uni<List<Figure>> allocated(Instant at) {
        return pool.preparedQuery("""
                        SELECT cluster, unit_kind AS kind, sum(fraction)::float8 AS v FROM ledger.allocation_segment
                        WHERE seg_start <= $1 AND (seg_end IS NULL OR seg_end > $1)
                        GROUP BY cluster, unit_kind""")
                .execute(Tuple.of(toOffset(at))).map(GaugeRepository::figures);
    }

    /**
     * Card-equivalents busy in one minute, per cluster: each card's activity that minute (SM_ACTIVE, else
     * GR_ENGINE_ACTIVE, else GPU_UTIL), summed over the cards.
     */
    public Uni<List<Figure>> used(Instant minute) {
        return pool.preparedQuery("""
                        SELECT a.cluster, '' AS kind, sum(a.act)::float8 AS v
                        FROM (SELECT array_agg(DISTINCT cluster) AS clusters, array_agg(DISTINCT gpu_uuid) AS gpu_uuids
                              FROM ledger.usage_minute WHERE scope = 'DEVICE' AND minute = $1) c
                        CROSS JOIN LATERAL ledger.card_activity(c.clusters, c.gpu_uuids, $1, $1 + interval '1 minute') a
                        WHERE a.scope = 'DEVICE'
                        GROUP BY a.cluster""")
                .execute(Tuple.of(toOffset(minute))).map(GaugeRepository::figures);
    }

    private static List<Figure> figures(Iterable<Row> rows) {
        List<Figure> out = new ArrayList<>();
        rows.forEach(r -> out.add(new Figure(r.getString("cluster"), r.getString("kind"), r.getDouble("v"))));
        return out;
    }
}
