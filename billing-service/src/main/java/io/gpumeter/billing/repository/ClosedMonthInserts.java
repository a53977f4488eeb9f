package io.gpumeter.billing.repository;

import io.gpumeter.billing.domain.CapacityLine;
import io.gpumeter.billing.domain.ClosedLine;
import io.gpumeter.billing.domain.ClosedMonth;
import io.gpumeter.billing.domain.EnergyTerms;
import io.gpumeter.billing.domain.FineKey;
import io.gpumeter.billing.domain.IdleEnergy;
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

    /** The month, then its stretches, its lines, its capacity and its idle energy. */
    static Uni<Void> all(SqlConnection conn, ClosedMonth month, List<ClosedLine> lines, List<BigDecimal> rates,
                         List<CapacityLine> capacity, List<IdleEnergy> idleEnergy) {
        return insertMonth(conn, month)
                .chain(() -> insertStretches(conn, month))
                .chain(() -> insertLines(conn, month.label(), lines, rates))
                .chain(() -> insertCapacity(conn, month, capacity))
                .chain(() -> insertIdleEnergy(conn, month, idleEnergy));
    }

    private static Uni<Void> insertIdleEnergy(SqlConnection conn, ClosedMonth month, List<IdleEnergy> idleEnergy) {
        if (idleEnergy.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        List<Tuple> batch = new ArrayList<>(idleEnergy.size());
        for (IdleEnergy part : idleEnergy) {
            batch.add(Tuple.of(month.label(), part.stretch(), part.cluster(), part.kWh().toPlainString()));
        }
        return conn.preparedQuery("""
                        INSERT INTO billing.closed_idle_energy (month, stretch_seq, cluster, idle_energy_kwh)
                        VALUES ($1, $2, $3, $4::text::numeric)""")
                .executeBatch(batch)
                .replaceWithVoid();
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
                            normalization_policy, normalization_version, closed_at, energy_recorded)
                        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)""")
                .execute(Tuple.from(List.of(month.label(), utc(month.period().start().toOffsetDateTime()),
                        utc(month.period().end().toOffsetDateTime()), month.period().start().getZone().getId(),
                        month.currency(), month.normalization().policy(), month.normalization().version(),
                        month.closedAt().atOffset(ZoneOffset.UTC), month.energyRecorded())))
                .replaceWithVoid();
    }

    private static Uni<Void> insertStretches(SqlConnection conn, ClosedMonth month) {
        List<Tuple> batch = new ArrayList<>();
        for (int i = 0; i < month.stretches().size(); i++) {
            RateCardTimeline.Stretch s = month.stretches().get(i);
            Map<String, BigDecimal> prices = s.card().modelRates();
            Map<String, EnergyTerms> clusters = s.card().clusterEnergy();
            // Tuple.from, not Tuple.of: a card without energy terms has null figures.
            batch.add(Tuple.from(java.util.Arrays.asList(month.label(), i, s.start().atOffset(ZoneOffset.UTC),
                    s.end().atOffset(ZoneOffset.UTC), s.card().version(), s.card().defaultRate().toPlainString(),
                    prices.keySet().toArray(String[]::new),
                    prices.values().stream().map(BigDecimal::toPlainString).toArray(String[]::new),
                    text(s.card().energy().pricePerKWh()), text(s.card().energy().gramsCo2ePerKWh()),
                    clusters.keySet().toArray(String[]::new),
                    clusters.values().stream().map(t -> text(t.pricePerKWh())).toArray(String[]::new),
                    clusters.values().stream().map(t -> text(t.gramsCo2ePerKWh())).toArray(String[]::new))));
        }
        return conn.preparedQuery("""
                        INSERT INTO billing.closed_stretch (month, seq, stretch_start, stretch_end, rate_card_version,
                            default_rate, models, rates, energy_price_per_kwh, grams_co2e_per_kwh, clusters,
                            cluster_energy_prices, cluster_grams_co2e)
                        VALUES ($1, $2, $3, $4, $5, $6::text::numeric, $7, $8::text[]::numeric[], $9::text::numeric,
                                $10::text::numeric, $11, $12::text[]::numeric[], $13::text[]::numeric[])""")
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
        String[] clusters = new String[n];
        String[] allocated = new String[n];
        String[] used = new String[n];
        String[] energy = new String[n];
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
            clusters[i] = key.cluster();
            allocated[i] = l.line().allocatedHours().toPlainString();
            used[i] = l.line().usedHours().toPlainString();
            energy[i] = l.line().energyKWh().toPlainString();
            prices[i] = rates.get(i).toPlainString();
        }
        return conn.preparedQuery("""
                        INSERT INTO billing.closed_line (month, line_type, corrects, stretch_seq, tenant, team, project,
                            namespace, model, allocated_gpu_hours, used_gpu_hours, rate, allocated_cost, used_cost,
                            cluster, energy_kwh)
                        SELECT $1, u.lt, u.corr, u.seq, u.tenant, u.team, u.project, u.ns, u.model, u.alloc::numeric,
                               u.used::numeric, u.rate::numeric, u.alloc::numeric * u.rate::numeric,
                               u.used::numeric * u.rate::numeric, u.cluster, u.energy::numeric
                        FROM unnest($2::text[], $3::text[], $4::int[], $5::text[], $6::text[], $7::text[], $8::text[],
                                    $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[])
                             AS u(lt, corr, seq, tenant, team, project, ns, model, alloc, used, rate, cluster, energy)""")
                .execute(Tuple.from(List.<Object>of(month, types, corrects, stretches, tenants, teams, projects,
                        namespaces, models, allocated, used, prices, clusters, energy)))
                .replaceWithVoid();
    }

    private static String text(BigDecimal figure) {
        return figure == null ? null : figure.toPlainString();
    }

    private static OffsetDateTime utc(OffsetDateTime t) {
        return t.withOffsetSameInstant(ZoneOffset.UTC);
    }
}
