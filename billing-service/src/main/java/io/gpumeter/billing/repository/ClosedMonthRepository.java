package io.gpumeter.billing.repository;

import io.gpumeter.billing.domain.BillingPeriod;
import io.gpumeter.billing.domain.CapacityLine;
import io.gpumeter.billing.domain.ClosedLine;
import io.gpumeter.billing.domain.ClosedMonth;
import io.gpumeter.billing.domain.EnergyTerms;
import io.gpumeter.billing.domain.FineKey;
import io.gpumeter.billing.domain.FineLine;
import io.gpumeter.billing.domain.IdleEnergy;
import io.gpumeter.billing.domain.LineType;
import io.gpumeter.billing.domain.Normalization;
import io.gpumeter.billing.domain.RateCard;
import io.gpumeter.billing.domain.RateCardTimeline;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.math.BigDecimal;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Closed months in schema billing, written once in one transaction and read back exactly: numerics travel as
 * decimal text, never as floating point.
 */
@ApplicationScoped
public class ClosedMonthRepository {

    private final Pool pool;

    public ClosedMonthRepository(Pool pool) {
        this.pool = pool;
    }

    /** The labels (YYYY-MM) of every closed month. */
    public Uni<Set<String>> months() {
        return pool.query("SELECT month FROM billing.closed_month").execute().map(rows -> {
            Set<String> out = new TreeSet<>();
            rows.forEach(r -> out.add(r.getString("month")));
            return out;
        });
    }

    /** The closed month with its stretches, or null when the month is open. */
    public Uni<ClosedMonth> find(String month) {
        return pool.preparedQuery("""
                        SELECT period_start, period_end, zone, currency, normalization_policy, normalization_version,
                               closed_at, energy_recorded
                        FROM billing.closed_month WHERE month = $1""")
                .execute(Tuple.of(month))
                .chain(rows -> {
                    if (rows.size() == 0) {
                        return Uni.createFrom().nullItem();
                    }
                    Row r = rows.iterator().next();
                    ZoneId zone = ZoneId.of(r.getString("zone"));
                    BillingPeriod period = new BillingPeriod(month,
                            r.getOffsetDateTime("period_start").atZoneSameInstant(zone),
                            r.getOffsetDateTime("period_end").atZoneSameInstant(zone));
                    return stretches(month).map(stretches -> new ClosedMonth(period, r.getString("currency"),
                            new Normalization(r.getString("normalization_policy"),
                                    r.getString("normalization_version")),
                            r.getOffsetDateTime("closed_at").toInstant(), stretches,
                            r.getBoolean("energy_recorded")));
                });
    }

    /** The stretches of a closed month in time order; empty when the month is open. */
    public Uni<List<RateCardTimeline.Stretch>> stretches(String month) {
        return pool.preparedQuery("""
                        SELECT stretch_start, stretch_end, rate_card_version, default_rate::text AS default_rate,
                               models, rates::text[] AS rates, energy_price_per_kwh::text AS energy_price,
                               grams_co2e_per_kwh::text AS grams, clusters,
                               cluster_energy_prices::text[] AS cluster_prices, cluster_grams_co2e::text[] AS cluster_grams
                        FROM billing.closed_stretch WHERE month = $1 ORDER BY seq""")
                .execute(Tuple.of(month))
                .map(rows -> {
                    List<RateCardTimeline.Stretch> out = new ArrayList<>();
                    for (Row r : rows) {
                        String[] models = r.getArrayOfStrings("models");
                        String[] rates = r.getArrayOfStrings("rates");
                        Map<String, BigDecimal> prices = new TreeMap<>();
                        for (int i = 0; i < models.length; i++) {
                            prices.put(models[i], new BigDecimal(rates[i]));
                        }
                        out.add(new RateCardTimeline.Stretch(r.getOffsetDateTime("stretch_start").toInstant(),
                                r.getOffsetDateTime("stretch_end").toInstant(),
                                new RateCard(r.getString("rate_card_version"), new BigDecimal(r.getString("default_rate")),
                                        prices, new EnergyTerms(decimal(r.getString("energy_price")),
                                        decimal(r.getString("grams"))), clusterEnergy(r))));
                    }
                    return out;
                });
    }

    /** A stretch's clusters with their own energy terms, from its parallel arrays. */
    private static Map<String, EnergyTerms> clusterEnergy(Row r) {
        String[] clusters = r.getArrayOfStrings("clusters");
        String[] prices = r.getArrayOfStrings("cluster_prices");
        String[] grams = r.getArrayOfStrings("cluster_grams");
        Map<String, EnergyTerms> out = new TreeMap<>();
        for (int i = 0; i < clusters.length; i++) {
            out.put(clusters[i], new EnergyTerms(decimal(prices[i]), decimal(grams[i])));
        }
        return out;
    }

    private static BigDecimal decimal(String text) {
        return text == null ? null : new BigDecimal(text);
    }

    /** The lines billed in a closed month (its usage and the adjustments it carried), in stored order. */
    public Uni<List<ClosedLine>> lines(String month) {
        return pool.preparedQuery("""
                        SELECT line_type, corrects, stretch_seq, tenant, team, project, namespace, model, cluster,
                               allocated_gpu_hours::text AS allocated, used_gpu_hours::text AS used,
                               energy_kwh::text AS energy
                        FROM billing.closed_line WHERE month = $1""")
                .execute(Tuple.of(month))
                .map(rows -> {
                    List<ClosedLine> out = new ArrayList<>(rows.size());
                    for (Row r : rows) {
                        out.add(new ClosedLine(LineType.valueOf(r.getString("line_type").toUpperCase(Locale.ROOT)),
                                r.getString("corrects"), fineLine(r)));
                    }
                    return out;
                });
    }

    /** Everything billed so far for the hours of {@code month}: its usage plus every adjustment to it, summed. */
    public Uni<List<FineLine>> billed(String month) {
        return pool.preparedQuery("""
                        SELECT stretch_seq, tenant, team, project, namespace, model, cluster,
                               sum(allocated_gpu_hours)::text AS allocated, sum(used_gpu_hours)::text AS used,
                               sum(energy_kwh)::text AS energy
                        FROM billing.closed_line WHERE corrects = $1
                        GROUP BY stretch_seq, tenant, team, project, namespace, model, cluster""")
                .execute(Tuple.of(month))
                .map(ClosedMonthRepository::fineLines);
    }

    /** The card-hours per stretch and model a closed month could supply, as stored at close. */
    public Uni<List<CapacityLine>> capacity(String month) {
        return pool.preparedQuery("""
                        SELECT stretch_seq, model, card_hours::text AS card_hours FROM billing.closed_capacity
                        WHERE month = $1""")
                .execute(Tuple.of(month))
                .map(rows -> {
                    List<CapacityLine> out = new ArrayList<>(rows.size());
                    rows.forEach(r -> out.add(new CapacityLine(r.getInteger("stretch_seq"), r.getString("model"),
                            new BigDecimal(r.getString("card_hours")))));
                    return out;
                });
    }

    /** What each cluster's cards drew per stretch of a closed month while no unit held them, as stored at close. */
    public Uni<List<IdleEnergy>> idleEnergy(String month) {
        return pool.preparedQuery("""
                        SELECT stretch_seq, cluster, idle_energy_kwh::text AS kwh FROM billing.closed_idle_energy
                        WHERE month = $1""")
                .execute(Tuple.of(month))
                .map(rows -> {
                    List<IdleEnergy> out = new ArrayList<>(rows.size());
                    rows.forEach(r -> out.add(new IdleEnergy(r.getInteger("stretch_seq"), r.getString("cluster"),
                            new BigDecimal(r.getString("kwh")))));
                    return out;
                });
    }

    /**
     * Stores a closed month, its stretches, its lines, its capacity and its idle energy in one transaction; fails
     * with the database's unique-violation error when the month is already closed.
     *
     * @param rates the price per normalized GPU-hour of each line, in {@code lines} order
     */
    public Uni<Void> insert(ClosedMonth month, List<ClosedLine> lines, List<BigDecimal> rates,
                            List<CapacityLine> capacity, List<IdleEnergy> idleEnergy) {
        if (rates.size() != lines.size()) {
            throw new IllegalArgumentException("one rate per line");
        }
        return pool.withTransaction(conn -> ClosedMonthInserts.all(conn, month, lines, rates, capacity, idleEnergy));
    }

    private static List<FineLine> fineLines(RowSet<Row> rows) {
        List<FineLine> out = new ArrayList<>(rows.size());
        rows.forEach(r -> out.add(fineLine(r)));
        return out;
    }

    /** A stored line; a line closed before energy was recorded has none (null, read as zero). */
    private static FineLine fineLine(Row r) {
        return new FineLine(r.getInteger("stretch_seq"),
                new FineKey(r.getString("tenant"), r.getString("team"), r.getString("project"),
                        r.getString("namespace"), r.getString("model"), r.getString("cluster")),
                new BigDecimal(r.getString("allocated")), new BigDecimal(r.getString("used")),
                decimal(r.getString("energy")));
    }
}
