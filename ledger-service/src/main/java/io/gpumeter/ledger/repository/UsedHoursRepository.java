package io.gpumeter.ledger.repository;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.ledger.hours.domain.GroupDimension;
import io.gpumeter.ledger.hours.domain.TimeBucket;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static io.gpumeter.ledger.repository.FactRepository.toOffset;

/**
 * Used card-equivalent hours per group, in the order of trust of the sources: a MIG instance's own series (relative
 * to the unit: activity times the unit's fraction); else the pod's series relative to the whole card, capped at the
 * unit's fraction — its HAMi containers' core utilization, else the SM time of the processes nvidia-smi saw for it;
 * else its card's activity per minute. A card's activity is never copied to every pod on it: what the pods measured
 * on the card took of it is theirs, the rest is apportioned among the other units by allocated fraction, each capped
 * at its own fraction. Every row says which source it came from ({@link UsageSource}). The same pass splits each
 * minute's energy of a card among the units on it by allocated fraction (used-hours.sql).
 */
@ApplicationScoped
public class UsedHoursRepository {

    /** The query, in used-hours.sql beside this class. */
    private static final SqlFile SQL = SqlFile.load("used-hours.sql");

    private final Pool pool;

    public UsedHoursRepository(Pool pool) {
        this.pool = pool;
    }

    /**
     * Used card-equivalent seconds per group in each piece of [window start, window end) (the pieces, labelled, lie
     * inside the window and {@code dimensions} hold no time bucket), and the energy of the group's units; a group with
     * nothing measured in a piece has no row for it.
     */
    public Uni<List<UsedSeconds>> usedSeconds(TimeWindow window, List<GroupDimension> dimensions, Instant now,
                                              String tenant, List<TimeBucket> pieces) {
        String select = dimensions.stream().map(d -> "coalesce(" + d.column("m") + ", 'unknown') AS d" + d.ordinal())
                .collect(Collectors.joining(", "));
        String group = dimensions.stream().map(d -> "d" + d.ordinal()).collect(Collectors.joining(", "));
        String sql = SQL.fill(SqlFile.with(Map.of("dimensions", select, "groups", group,
                "tenant_filter", SqlFile.tenantFilter(tenant)), SqlFile.USED_PIECES));
        Instant cap = now.isBefore(window.end()) ? now : window.end();
        return pool.preparedQuery(sql)
                .execute(SqlFile.withBuckets(Tuple.of(toOffset(window.start()), toOffset(window.end()), toOffset(cap), tenant), pieces))
                .map(rows -> {
                    List<UsedSeconds> out = new ArrayList<>();
                    for (Row row : rows) {
                        Double joules = row.getDouble("energy_j");
                        out.add(new UsedSeconds(row.getString("piece"), SqlFile.groupValues(row, dimensions),
                                nonNull(row.getBigDecimal("used")), nonNull(row.getBigDecimal("covered")),
                                row.getString("metrics"), row.getString("sources"), joules == null ? 0 : joules,
                                nonNull(row.getBigDecimal("energy_covered")), row.getString("energy_sources")));
                    }
                    return out;
                });
    }

    /**
     * One group's measured use in one piece of a window, in card-equivalent seconds at the scale PostgreSQL summed
     * them to; metrics and sources comma-separated, as {@link io.gpumeter.ledger.hours.domain.UsedHours} has them.
     */
    public record UsedSeconds(String piece, List<String> values, BigDecimal used, BigDecimal covered, String metrics,
                              String sources, double energyJoules, BigDecimal energyCovered, String energySources) {
    }

    private static BigDecimal nonNull(BigDecimal value) {
        return value == null ? BigDecimal.ZERO : value;
    }
}
