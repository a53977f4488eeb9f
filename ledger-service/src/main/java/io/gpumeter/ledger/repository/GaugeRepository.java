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
                        SELECT cluster, '' AS kind, sum(act)::float8 AS v FROM (
                            SELECT cluster, gpu_uuid,
                                   coalesce(max(sum / samples) FILTER (WHERE field = 'SM_ACTIVE'),
                                            max(sum / samples) FILTER (WHERE field = 'GR_ENGINE_ACTIVE'),
                                            max(sum / samples) FILTER (WHERE field = 'GPU_UTIL')) AS act
                            FROM ledger.usage_minute
                            WHERE scope = 'DEVICE' AND field IN ('SM_ACTIVE', 'GR_ENGINE_ACTIVE', 'GPU_UTIL') AND minute = $1
                            GROUP BY cluster, gpu_uuid) c
                        GROUP BY cluster""")
                .execute(Tuple.of(toOffset(minute))).map(GaugeRepository::figures);
    }

    private static List<Figure> figures(Iterable<Row> rows) {
        List<Figure> out = new ArrayList<>();
        rows.forEach(r -> out.add(new Figure(r.getString("cluster"), r.getString("kind"), r.getDouble("v"))));
        return out;
    }
}
