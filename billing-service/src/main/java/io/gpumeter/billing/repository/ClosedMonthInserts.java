package io.gpumeter.billing.repository;

import io.gpumeter.billing.domain.CapacityLine;
import io.gpumeter.billing.domain.ClosedLine;
import io.gpumeter.billing.domain.ClosedMonth;
import io.gpumeter.billing.domain.FineKey;
import io.gpumeter.billing.domain.RateCardTimeline;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;

import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The statements that write a closed month, run by {@link ClosedMonthRepository#insert} on one connection inside
 * its transaction: numerics travel as decimal text, never as floating point.
 */
final class ClosedMonthInserts {

    private ClosedMonthInserts() {
    }

    /** The month, then its stretches, its lines and its capacity. */
    static Uni<Void> all(SqlConnection conn, ClosedMonth month, List<ClosedLine> lines, List<BigDecimal> rates,
                         List<CapacityLine> capacity) {
        return insertMonth(conn, month)
                .chain(() -> insertStretches(conn, month))
                .chain(() -> insertLines(conn, month.label(), lines, rates))
                .chain(() -> insertCapacity(conn, month, capacity));
    }

    private static Uni<Void> insertCapacity(SqlConnection conn, ClosedMonth month, List<CapacityLine> capacity) {
        if (capacity.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        List<Tuple> batch = new ArrayList<>(capacity.size());
        for (CapacityLine line : capacity) {
            BigDecimal rate = month.stretches().get(line.stretch()).card().rateFor(line.model());
            batch.add(Tuple.of(month.label(), line.stretch(), line.model(), line.cardHours().toPlainString(),
                    rate.toPlainString(), line.cardHours().multiply(rate).toPlainString()));
        }
        return conn.preparedQuery("""
                        INSERT INTO billing.closed_capacity (month, stretch_seq, model, card_hours, rate, cost)
                        VALUES ($1, $2, $3, $4::text::numeric, $5::text::numeric, $6::text::numeric)""")
                .executeBatch(batch)
                .replaceWithVoid();
    }

    private static Uni<Void> insertMonth(SqlConnection conn, ClosedMonth month) {
        return conn.preparedQuery("""
                        INSERT INTO billing.closed_month (month, period_start, period_end, zone, currency,
                            normalization_policy, normalization_version, closed_at)
                        VALUES ($1, $2, $3, $4, $5, $6, $7, $8)""")
                .execute(Tuple.from(List.of(month.label(), utc(month.period().start().toOffsetDateTime()),
                        utc(month.period().end().toOffsetDateTime()), month.period().start().getZone().getId(),
                        month.currency(), month.normalization().policy(), month.normalization().version(),
                        month.closedAt().atOffset(ZoneOffset.UTC))))
                .replaceWithVoid();
    }

    private static Uni<Void> insertStretches(SqlConnection conn, ClosedMonth month) {
        List<Tuple> batch = new ArrayList<>();
        for (int i = 0; i < month.stretches().size(); i++) {
            RateCardTimeline.Stretch s = month.stretches().get(i);
            Map<String, BigDecimal> prices = s.card().modelRates();
            batch.add(Tuple.from(List.of(month.label(), i, s.start().atOffset(ZoneOffset.UTC),
                    s.end().atOffset(ZoneOffset.UTC), s.card().version(), s.card().defaultRate().toPlainString(),
                    prices.keySet().toArray(String[]::new),
                    prices.values().stream().map(BigDecimal::toPlainString).toArray(String[]::new))));
        }
        return conn.preparedQuery("""
                        INSERT INTO billing.closed_stretch (month, seq, stretch_start, stretch_end, rate_card_version,
                            default_rate, models, rates)
                        VALUES ($1, $2, $3, $4, $5, $6::text::numeric, $7, $8::text[]::numeric[])""")
                .executeBatch(batch)
                .replaceWithVoid();
    }

    private static Uni<Void> insertLines(SqlConnection conn, String month, List<ClosedLine> lines,
                                         List<BigDecimal> rates) {
        if (lines.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        int n = lines.size();
        String[] types = new String[n];
        String[] corrects = new String[n];
        Integer[] stretches = new Integer[n];
        String[] tenants = new String[n];
        String[] teams = new String[n];
        String[] projects = new String[n];
        String[] namespaces = new String[n];
        String[] models = new String[n];
        String[] allocated = new String[n];
        String[] used = new String[n];
        String[] prices = new String[n];
        for (int i = 0; i < n; i++) {
            ClosedLine l = lines.get(i);
            FineKey key = l.line().key();
            types[i] = l.type().label();
            corrects[i] = l.corrects();
            stretches[i] = l.line().stretch();
            tenants[i] = key.tenant();
            teams[i] = key.team();
            projects[i] = key.project();
            namespaces[i] = key.namespace();
            models[i] = key.model();
            allocated[i] = l.line().allocatedHours().toPlainString();
            used[i] = l.line().usedHours().toPlainString();
            prices[i] = rates.get(i).toPlainString();
        }
        return conn.preparedQuery("""
                        INSERT INTO billing.closed_line (month, line_type, corrects, stretch_seq, tenant, team, project,
                            namespace, model, allocated_gpu_hours, used_gpu_hours, rate, allocated_cost, used_cost)
                        SELECT $1, u.lt, u.corr, u.seq, u.tenant, u.team, u.project, u.ns, u.model, u.alloc::numeric,
                               u.used::numeric, u.rate::numeric, u.alloc::numeric * u.rate::numeric,
                               u.used::numeric * u.rate::numeric
                        FROM unnest($2::text[], $3::text[], $4::int[], $5::text[], $6::text[], $7::text[], $8::text[],
                                    $9::text[], $10::text[], $11::text[], $12::text[])
                             AS u(lt, corr, seq, tenant, team, project, ns, model, alloc, used, rate)""")
                .execute(Tuple.from(List.<Object>of(month, types, corrects, stretches, tenants, teams, projects,
                        namespaces, models, allocated, used, prices)))
                .replaceWithVoid();
    }

    private static OffsetDateTime utc(OffsetDateTime t) {
        return t.withOffsetSameInstant(ZoneOffset.UTC);
    }
}
