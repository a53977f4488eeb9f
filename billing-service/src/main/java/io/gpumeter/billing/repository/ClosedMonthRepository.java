package io.gpumeter.billing.repository;

import io.gpumeter.billing.domain.BillingPeriod;
import io.gpumeter.billing.domain.CapacityLine;
import io.gpumeter.billing.domain.ClosedLine;
import io.gpumeter.billing.domain.ClosedMonth;
import io.gpumeter.billing.domain.FineKey;
import io.gpumeter.billing.domain.FineLine;
import io.gpumeter.billing.domain.LineType;
import io.gpumeter.billing.domain.Normalization;
import io.gpumeter.billing.domain.RateCard;
import io.gpumeter.billing.domain.RateCardTimeline;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
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
                               closed_at
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
                            r.getOffsetDateTime("closed_at").toInstant(), stretches));
                });
    }

    /** The stretches of a closed month in time order; empty when the month is open. */
    public Uni<List<RateCardTimeline.Stretch>> stretches(String month) {
        return pool.preparedQuery("""
                        SELECT stretch_start, stretch_end, rate_card_version, default_rate::text AS default_rate,
                               models, rates::text[] AS rates
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
                                        prices)));
                    }
                    return out;
                });
    }

    /** The lines billed in a closed month (its usage and the adjustments it carried), in stored order. */
    public Uni<List<ClosedLine>> lines(String month) {
        return pool.preparedQuery("""
                        SELECT line_type, corrects, stretch_seq, tenant, team, project, namespace, model,
                               allocated_gpu_hours::text AS allocated, used_gpu_hours::text AS used
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
                        SELECT stretch_seq, tenant, team, project, namespace, model,
                               sum(allocated_gpu_hours)::text AS allocated, sum(used_gpu_hours)::text AS used
                        FROM billing.closed_line WHERE corrects = $1
                        GROUP BY stretch_seq, tenant, team, project, namespace, model""")
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

    /**
     * Stores a closed month, its stretches, its lines and its capacity in one transaction; fails with the
     * database's unique-violation error when the month is already closed.
     *
     * @param rates the price per normalized GPU-hour of each line, in {@code lines} order
     */
    public Uni<Void> insert(ClosedMonth month, List<ClosedLine> lines, List<BigDecimal> rates,
                            List<CapacityLine> capacity) {
        if (rates.size() != lines.size()) {
            throw new IllegalArgumentException("one rate per line");
        }
        return pool.withTransaction(conn -> insertMonth(conn, month)
                .chain(() -> insertStretches(conn, month))
                .chain(() -> insertLines(conn, month.label(), lines, rates))
                .chain(() -> insertCapacity(conn, month, capacity)));
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

    private static List<FineLine> fineLines(RowSet<Row> rows) {
        List<FineLine> out = new ArrayList<>(rows.size());
        rows.forEach(r -> out.add(fineLine(r)));
        return out;
    }

    private static FineLine fineLine(Row r) {
        return new FineLine(r.getInteger("stretch_seq"),
                new FineKey(r.getString("tenant"), r.getString("team"), r.getString("project"),
                        r.getString("namespace"), r.getString("model")),
                new BigDecimal(r.getString("allocated")), new BigDecimal(r.getString("used")));
    }

    private static OffsetDateTime utc(OffsetDateTime t) {
        return t.withOffsetSameInstant(ZoneOffset.UTC);
    }
}
