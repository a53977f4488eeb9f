package io.gpumeter.ledger.repository;

import io.gpumeter.ledger.domain.GroupDimension;
import io.gpumeter.ledger.domain.TimeWindow;
import io.gpumeter.ledger.domain.UsedHours;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static io.gpumeter.ledger.repository.FactRepository.toOffset;

/**
 * Used card-equivalent hours per group: each allocation segment's overlap with every measured minute of its
 * card, times the card's activity that minute, apportioned among the card's occupants by allocated fraction and
 * never above the segment's own fraction. Device values are never copied to every pod on a shared card.
 */
@ApplicationScoped
public class UsedHoursRepository {

    private final Pool pool;

    public UsedHoursRepository(Pool pool) {
        this.pool = pool;
    }

    public Uni<Map<String, UsedHours>> usedHours(TimeWindow window, List<GroupDimension> dimensions, Instant now) {
        String select = dimensions.stream().map(d -> "coalesce(" + d.column("m") + ", 'unknown') AS d" + d.ordinal())
                .collect(Collectors.joining(", "));
        String group = dimensions.stream().map(d -> "d" + d.ordinal()).collect(Collectors.joining(", "));
        String sql = """
                WITH seg AS (
                    SELECT s.*, greatest(s.seg_start, $1) AS a, least(coalesce(s.seg_end, $3), $2) AS b
                    FROM ledger.allocation_segment s
                    WHERE s.gpu_uuid IS NOT NULL AND s.seg_start < $2 AND coalesce(s.seg_end, $3) > $1 AND s.seg_start < $3),
                dev AS (
                    SELECT cluster, gpu_uuid, minute,
                           coalesce(max(sum / samples) FILTER (WHERE field = 'SM_ACTIVE'),
                                    max(sum / samples) FILTER (WHERE field = 'GR_ENGINE_ACTIVE'),
                                    max(sum / samples) FILTER (WHERE field = 'GPU_UTIL')) AS act,
                           CASE WHEN bool_or(field = 'SM_ACTIVE') THEN 'SM_ACTIVE'
                                WHEN bool_or(field = 'GR_ENGINE_ACTIVE') THEN 'GR_ENGINE_ACTIVE' ELSE 'GPU_UTIL' END AS metric
                    FROM ledger.usage_minute
                    WHERE scope = 'DEVICE' AND field IN ('SM_ACTIVE', 'GR_ENGINE_ACTIVE', 'GPU_UTIL')
                      AND minute >= date_trunc('minute', $1::timestamptz) AND minute < $2
                      AND gpu_uuid IN (SELECT DISTINCT gpu_uuid FROM seg)
                    GROUP BY cluster, gpu_uuid, minute),
                seg_minute AS (
                    SELECT seg.*, d.minute, d.act, d.metric,
                           extract(epoch FROM least(seg.b, d.minute + interval '1 minute') - greatest(seg.a, d.minute)) AS o
                    FROM seg JOIN dev d ON d.cluster = seg.cluster AND d.gpu_uuid = seg.gpu_uuid
                                       AND d.minute < seg.b AND d.minute + interval '1 minute' > seg.a),
                card_load AS (
                    SELECT cluster, gpu_uuid, minute, sum(fraction) AS total FROM seg_minute GROUP BY cluster, gpu_uuid, minute)
                SELECT\s""" + select + """
                     , sum(m.o * least(m.fraction, m.act::numeric * m.fraction / l.total)) / 3600 AS used,
                       sum(m.o * m.fraction) / 3600 AS covered,
                       string_agg(DISTINCT m.metric, ',' ORDER BY m.metric) AS metrics,
                       bool_and(l.total = m.fraction) AS exclusive
                FROM seg_minute m JOIN card_load l ON l.cluster = m.cluster AND l.gpu_uuid = m.gpu_uuid AND l.minute = m.minute
                GROUP BY """ + " " + group;
        Instant cap = now.isBefore(window.end()) ? now : window.end();
        return pool.preparedQuery(sql)
                .execute(Tuple.of(toOffset(window.start()), toOffset(window.end()), toOffset(cap)))
                .map(rows -> {
                    Map<String, UsedHours> out = new HashMap<>();
                    for (Row row : rows) {
                        List<String> values = new ArrayList<>();
                        dimensions.forEach(d -> values.add(row.getString("d" + d.ordinal())));
                        out.put(String.join("/", values), new UsedHours(nonNull(row.getBigDecimal("used")),
                                nonNull(row.getBigDecimal("covered")), row.getString("metrics"),
                                Boolean.TRUE.equals(row.getBoolean("exclusive"))));
                    }
                    return out;
                });
    }

    private static BigDecimal nonNull(BigDecimal value) {
        return value == null ? BigDecimal.ZERO : value.stripTrailingZeros();
    }
}
