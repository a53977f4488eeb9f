package io.gpumeter.ledger.repository;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.LocalDate;
import java.time.YearMonth;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The statements of usage retention: which minute and hour partitions exist, folding one day's minute partition
 * into hours and dropping it in one transaction, and dropping an hour partition. Each step first waits for a
 * transaction-scoped advisory lock, then looks whether its partition is still there: of two replicas running the job
 * at once, one does a step and the other, let in after it, finds the partition gone. Every day is folded, and once.
 */
@ApplicationScoped
public class RetentionRepository implements RetentionBooks {

    /** Taken by every retention step; a replica that finds it held waits for the other's step to end. */
    static final String LOCK = "gpumeter.ledger.retention";
    /** Taken by usage intake while it creates minute partitions (UsageRepository.ensurePartitions). */
    static final String PARTITIONS_LOCK = "gpumeter.ledger.partitions";
    private static final DateTimeFormatter DAY = DateTimeFormatter.BASIC_ISO_DATE;
    private static final DateTimeFormatter MONTH = DateTimeFormatter.ofPattern("yyyyMM");

    private final Pool pool;

    public RetentionRepository(Pool pool) {
        this.pool = pool;
    }

    /** The days that have a minute partition, oldest first. */
    public Uni<List<LocalDate>> minuteDays() {
        return partitions("usage_minute", "^usage_minute_p[0-9]{8}$")
                .map(names -> names.stream().map(n -> LocalDate.parse(n.substring(n.length() - 8), DAY)).sorted().toList());
    }

    /** The months that have an hour partition, oldest first. */
    public Uni<List<YearMonth>> hourMonths() {
        return partitions("usage_hour", "^usage_hour_p[0-9]{6}$")
                .map(names -> names.stream().map(n -> YearMonth.parse(n.substring(n.length() - 6), MONTH)).sorted().toList());
    }

    /**
     * Folds one day's minute rows into hour rows and drops the day's partition, in one transaction; empty when the
     * partition is already gone (another replica folded it). The partitions lock keeps usage intake from
     * creating the partition again between the fold and the drop. An hour row already there (minutes of that day
     * that arrived after an earlier fold) is added to.
     */
    public Uni<Optional<Folded>> foldDay(LocalDate day) {
        String minutes = "ledger.usage_minute_p" + DAY.format(day);
        YearMonth month = YearMonth.from(day);
        return pool.withTransaction(conn -> lock(conn).chain(() -> {
            // Dropping a partition locks usage_minute whole for an instant; rather than queue reads behind a long one,
            // a fold that cannot have it soon gives up, undone, and the next run does it.
            return conn.query("SET LOCAL lock_timeout = '10s'").execute()
                    .chain(() -> conn.query("SELECT pg_advisory_xact_lock(hashtext('" + PARTITIONS_LOCK + "'))").execute())
                    .chain(() -> conn.query(present(minutes)).execute())
                    .chain(rows -> {
                        if (!rows.iterator().next().getBoolean("present")) {
                            return Uni.createFrom().item(Optional.<Folded>empty());
                        }
                        return ensureHourPartition(conn, month)
                                .chain(() -> conn.query(fold(minutes)).execute())
                                .map(RetentionRepository::folded)
                                .call(() -> conn.query("DROP TABLE " + minutes).execute())
                                // the day's counter readings go with it: its minutes were derived from them
                                .call(() -> conn.query("DROP TABLE IF EXISTS ledger."
                                        + CounterRepository.partition(day)).execute())
                                .map(counts -> Optional.of(new Folded(day, counts[0], counts[1])));
                    });
        }));
    }

    /**
     * Drops one month's hour partition; false when it is already gone. No row trigger sees a partition dropped whole,
     * so the month's days are recorded as changed here, in the same transaction (DayBooks).
     */
    public Uni<Boolean> dropHourMonth(YearMonth month) {
        String hours = "ledger.usage_hour_p" + MONTH.format(month);
        return pool.withTransaction(conn -> lock(conn)
                .chain(() -> conn.query(present(hours)).execute())
                .chain(rows -> rows.iterator().next().getBoolean("present")
                        ? conn.query("DROP TABLE " + hours).execute()
                                .call(() -> conn.query(DayBooks.touchSql(month.atDay(1), month.atEndOfMonth())).execute())
                                .replaceWith(true)
                        : Uni.createFrom().item(false)));
    }

    /**
     * Whether a ledger table exists, read from pg_class with the statement's own snapshot: to_regclass answers from
     * the session's catalog cache, which may not yet know of a drop another replica committed while this one waited
     * for the lock.
     */
    private static String present(String qualified) {
        return "SELECT EXISTS (SELECT 1 FROM pg_class WHERE relnamespace = 'ledger'::regnamespace AND relname = '"
                + qualified.substring("ledger.".length()) + "') AS present";
    }

    private static String fold(String minutes) {
        return """
                WITH src AS (
                    SELECT cluster, gpu_uuid, scope, scope_key, field, date_trunc('hour', minute) AS hour,
                           sum(sum) AS sum, max(max) AS max, sum(samples)::int AS samples, count(*)::int AS minutes,
                           sum(sum / samples) AS minute_mean_sum
                    FROM %s
                    GROUP BY cluster, gpu_uuid, scope, scope_key, field, date_trunc('hour', minute)),
                written AS (
                    INSERT INTO ledger.usage_hour (cluster, gpu_uuid, scope, scope_key, field, hour, sum, max, samples,
                                                   minutes, minute_mean_sum)
                    SELECT * FROM src
                    ON CONFLICT (cluster, gpu_uuid, scope, scope_key, field, hour) DO UPDATE SET
                        sum = usage_hour.sum + excluded.sum, max = greatest(usage_hour.max, excluded.max),
                        samples = usage_hour.samples + excluded.samples, minutes = usage_hour.minutes + excluded.minutes,
                        minute_mean_sum = usage_hour.minute_mean_sum + excluded.minute_mean_sum
                    RETURNING 1)
                SELECT (SELECT coalesce(sum(minutes), 0) FROM src)::int8 AS minute_rows,
                       (SELECT count(*) FROM written)::int8 AS hour_rows""".formatted(minutes);
    }

    private static long[] folded(Iterable<Row> rows) {
        Row r = rows.iterator().next();
        return new long[] {r.getLong("minute_rows"), r.getLong("hour_rows")};
    }

    private static Uni<Void> ensureHourPartition(SqlConnection conn, YearMonth month) {
        String name = "ledger.usage_hour_p" + MONTH.format(month);
        return conn.query("DO $$BEGIN IF NOT EXISTS (SELECT 1 FROM pg_class WHERE relnamespace = 'ledger'::regnamespace"
                + " AND relname = '" + name.substring("ledger.".length()) + "') THEN CREATE TABLE " + name
                + " PARTITION OF ledger.usage_hour FOR VALUES FROM ('" + month.atDay(1) + "T00:00:00Z') TO ('"
                + month.plusMonths(1).atDay(1) + "T00:00:00Z'); END IF; END$$").execute().replaceWithVoid();
    }

    /**
     * Waits for the retention lock. A day's fold reads and writes a whole partition: it may run longer than the
     * service's statement timeout, which bounds the API's queries, so this transaction has its own.
     */
    private static Uni<Void> lock(SqlConnection conn) {
        return conn.query("SET LOCAL statement_timeout = '1h'").execute()
                .chain(() -> conn.query("SELECT pg_advisory_xact_lock(hashtext('" + LOCK + "'))").execute())
                .replaceWithVoid();
    }

    private Uni<List<String>> partitions(String parent, String pattern) {
        return pool.query("""
                        SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
                        WHERE i.inhparent = 'ledger.%s'::regclass AND c.relname ~ '%s'""".formatted(parent, pattern))
                .execute()
                .map(rows -> {
                    List<String> out = new ArrayList<>();
                    rows.forEach(r -> out.add(r.getString("relname")));
                    return out;
                });
    }
}
