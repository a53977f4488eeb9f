package io.gpumeter.ledger.repository;

import io.gpumeter.common.fact.ClockEventReason;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.gpumeter.ledger.repository.FactRepository.toOffset;

/**
 * A card's clocks-event reasons and violation counters over a window, from the card's usage rollups (minutes, and
 * hours before the minute retention): the minutes each reason was active, its episodes as islands of consecutive
 * spans active in any sample, and the violation counters' seconds in each episode. A span overlapping the window's
 * edge counts in proportion to its part inside.
 */
@ApplicationScoped
public class ThrottlingRepository {

    /** A reason's active time over the window. */
    public record Total(String field, double minutes) {
    }

    /** An island of consecutive active spans, with the violation counters' seconds in it (null when not read). */
    public record Island(String field, Instant from, Instant to, double minutes, Double powerSeconds,
                         Double thermalSeconds) {
    }

    /** A violation counter over the window: seconds held back, seconds covered. */
    public record Counter(String field, double seconds, double covered) {
    }

    private static final String[] REASON_FIELDS = Arrays.stream(ClockEventReason.values())
            .map(r -> r.field().name()).toArray(String[]::new);

    private final Pool pool;

    public ThrottlingRepository(Pool pool) {
        this.pool = pool;
    }

    /** Each measured reason's active minutes. */
    public Uni<List<Total>> totals(String gpuUuid, Instant from, Instant to) {
        return pool.preparedQuery("""
                        SELECT field, sum(level * ledger.clipped_seconds(at, at + span, $2, $3) / 60) AS minutes
                        FROM ledger.usage_rollup
                        WHERE gpu_uuid = $1 AND scope = 'DEVICE' AND field = ANY ($4)
                          AND at >= date_trunc('hour', $2::timestamptz) AND at + span > $2 AND at < $3
                        GROUP BY field""")
                .execute(Tuple.of(gpuUuid, toOffset(from), toOffset(to), REASON_FIELDS))
                .map(rows -> {
                    List<Total> out = new ArrayList<>();
                    rows.forEach(r -> out.add(new Total(r.getString("field"), r.getDouble("minutes"))));
                    return out;
                });
    }

    /** The episodes of every reason, in time order per reason. */
    public Uni<List<Island>> islands(String gpuUuid, Instant from, Instant to) {
        return pool.preparedQuery("""
                        WITH active AS (
                            SELECT field, at, span, level * ledger.clipped_seconds(at, at + span, $2, $3) / 60 AS minutes
                            FROM ledger.usage_rollup
                            WHERE gpu_uuid = $1 AND scope = 'DEVICE' AND field = ANY ($4) AND max > 0
                              AND at >= date_trunc('hour', $2::timestamptz) AND at + span > $2 AND at < $3),
                        marked AS (
                            SELECT a.*, CASE WHEN lag(at + span) OVER w = at THEN 0 ELSE 1 END AS starts
                            FROM active a WINDOW w AS (PARTITION BY field ORDER BY at)),
                        island AS (
                            SELECT field, ledger.clip(min(at), $2, $3) AS i_from, ledger.clip(max(at + span), $2, $3) AS i_to,
                                   sum(minutes) AS minutes
                            FROM (SELECT m.*, sum(starts) OVER (PARTITION BY field ORDER BY at) AS n FROM marked m) x
                            GROUP BY field, n)
                        SELECT i.field, i.i_from, i.i_to, i.minutes, v.power, v.thermal
                        FROM island i
                        CROSS JOIN LATERAL (
                            SELECT sum(u.sum * ledger.clipped_seconds(u.at, u.at + u.span, i.i_from, i.i_to)
                                       / extract(epoch FROM u.span)) FILTER (WHERE u.field = 'POWER_VIOLATION_S') AS power,
                                   sum(u.sum * ledger.clipped_seconds(u.at, u.at + u.span, i.i_from, i.i_to)
                                       / extract(epoch FROM u.span)) FILTER (WHERE u.field = 'THERMAL_VIOLATION_S') AS thermal
                            FROM ledger.usage_rollup u
                            WHERE u.gpu_uuid = $1 AND u.scope = 'DEVICE'
                              AND u.field IN ('POWER_VIOLATION_S', 'THERMAL_VIOLATION_S')
                              AND u.at >= date_trunc('hour', i.i_from) AND u.at + u.span > i.i_from AND u.at < i.i_to) v
                        ORDER BY i.field, i.i_from""")
                .execute(Tuple.of(gpuUuid, toOffset(from), toOffset(to), REASON_FIELDS))
                .map(rows -> {
                    List<Island> out = new ArrayList<>();
                    for (Row r : rows) {
                        out.add(new Island(r.getString("field"), r.getOffsetDateTime("i_from").toInstant(),
                                r.getOffsetDateTime("i_to").toInstant(), r.getDouble("minutes"), r.getDouble("power"),
                                r.getDouble("thermal")));
                    }
                    return out;
                });
    }

    /** The violation counters measured in the window, by derived field name. */
    public Uni<Map<String, Counter>> counters(String gpuUuid, Instant from, Instant to) {
        return pool.preparedQuery("""
                        SELECT field, sum(sum * ledger.clipped_seconds(at, at + span, $2, $3) / extract(epoch FROM span)) AS seconds,
                               sum(samples * ledger.clipped_seconds(at, at + span, $2, $3) / extract(epoch FROM span)) AS covered
                        FROM ledger.usage_rollup
                        WHERE gpu_uuid = $1 AND scope = 'DEVICE' AND field IN ('POWER_VIOLATION_S', 'THERMAL_VIOLATION_S')
                          AND at >= date_trunc('hour', $2::timestamptz) AND at + span > $2 AND at < $3
                        GROUP BY field""")
                .execute(Tuple.of(gpuUuid, toOffset(from), toOffset(to)))
                .map(rows -> {
                    Map<String, Counter> out = new HashMap<>();
                    rows.forEach(r -> out.put(r.getString("field"), new Counter(r.getString("field"),
                            r.getDouble("seconds"), r.getDouble("covered"))));
                    return out;
                });
    }
}
