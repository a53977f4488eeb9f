package io.gpumeter.ledger.repository;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.LocalDate;
import java.time.YearMonth;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The statements of host retention, as {@link RetentionRepository} has them for usage and under the same locks:
 * folding a day's minute partitions of both host tables into their hour tables and dropping them in one transaction,
 * and dropping a month's hour partitions. Amounts and covered time add up; the CPU limit and CPU count keep their
 * largest; a column no minute reported stays null.
 */
@ApplicationScoped
public class HostRetentionRepository implements RetentionBooks {

    /**
     * A minute table, its hour table, its key and its columns: summed, or kept at their largest.
     *
     * @param onConflict the hour table's key as its upsert names it, written out whole so that it can be checked
     */
    private record Table(String minutes, String hours, String key, String onConflict, List<String> summed,
                         List<String> largest) {
    }

    private static final Table CONTAINERS = new Table("host_container_minute", "host_container_hour",
            "cluster, namespace, pod, container", "ON CONFLICT (cluster, namespace, pod, container, hour)",
            List.of("cpu_seconds", "cfs_periods", "cfs_throttled_periods", "fs_read_bytes", "fs_write_bytes",
                    "net_receive_bytes", "net_transmit_bytes"),
            List.of("cpu_limit_cores"));
    private static final Table NODES = new Table("host_node_minute", "host_node_hour", "cluster, node",
            "ON CONFLICT (cluster, node, hour)",
            List.of("cpu_idle_seconds", "cpu_iowait_seconds", "cpu_user_seconds", "cpu_system_seconds",
                    "cpu_other_seconds", "cpu_pressure_waiting_seconds", "io_pressure_stalled_seconds",
                    "memory_pressure_stalled_seconds", "net_receive_bytes", "net_transmit_bytes", "net_receive_drops",
                    "net_transmit_drops"),
            List.of("cpus"));
    private static final DateTimeFormatter DAY = DateTimeFormatter.BASIC_ISO_DATE;
    private static final DateTimeFormatter MONTH = DateTimeFormatter.ofPattern("yyyyMM");

    private final Pool pool;

    public HostRetentionRepository(Pool pool) {
        this.pool = pool;
    }

    /** The days that have a minute partition of either table, oldest first. */
    public Uni<List<LocalDate>> minuteDays() {
        return partitions("^host_(container|node)_minute_p[0-9]{8}$").map(names -> names.stream()
                .map(n -> LocalDate.parse(n.substring(n.length() - 8), DAY)).distinct().sorted().toList());
    }

    /** The months that have an hour partition of either table, oldest first. */
    public Uni<List<YearMonth>> hourMonths() {
        return partitions("^host_(container|node)_hour_p[0-9]{6}$").map(names -> names.stream()
                .map(n -> YearMonth.parse(n.substring(n.length() - 6), MONTH)).distinct().sorted().toList());
    }

    /** Folds one day of both tables into hours and drops its partitions; empty when neither is there any more. */
    public Uni<Optional<Folded>> foldDay(LocalDate day) {
        return pool.withTransaction(conn -> lock(conn)
                .chain(() -> conn.query("SET LOCAL lock_timeout = '10s'").execute())
                .chain(() -> conn.query("SELECT pg_advisory_xact_lock(hashtext('" + RetentionRepository.PARTITIONS_LOCK
                        + "'))").execute())
                .chain(() -> fold(conn, CONTAINERS, day))
                .chain(containers -> fold(conn, NODES, day).map(nodes -> containers == null && nodes == null
                        ? Optional.<Folded>empty()
                        : Optional.of(new Folded(day, sum(containers, 0) + sum(nodes, 0), sum(containers, 1) + sum(nodes, 1))))));
    }

    /**
     * Drops one month's hour partitions of both tables; false when neither was there. No row trigger sees a partition
     * dropped whole: the month's days are recorded as changed here (DayBooks).
     */
    public Uni<Boolean> dropHourMonth(YearMonth month) {
        return pool.withTransaction(conn -> lock(conn)
                .chain(() -> drop(conn, CONTAINERS.hours() + "_p" + MONTH.format(month)))
                .chain(a -> drop(conn, NODES.hours() + "_p" + MONTH.format(month)).map(b -> a || b))
                .call(dropped -> dropped ? conn.query(DayBooks.touchSql(month.atDay(1), month.atEndOfMonth())).execute()
                        : Uni.createFrom().voidItem()));
    }

    /** Folds the table's day into its hours and drops the day; null when the day's partition is not there. */
    private static Uni<long[]> fold(SqlConnection conn, Table t, LocalDate day) {
        String partition = t.minutes() + "_p" + DAY.format(day);
        return present(conn, partition).chain(present -> {
            if (!present) {
                return Uni.createFrom().nullItem();
            }
            YearMonth month = YearMonth.from(day);
            return ensureHourPartition(conn, t.hours(), month)
                    .chain(() -> conn.query(foldSql(t, partition)).execute())
                    .map(rows -> {
                        var r = rows.iterator().next();
                        return new long[] {r.getLong("minute_rows"), r.getLong("hour_rows")};
                    })
                    .call(() -> conn.query("DROP TABLE ledger." + partition).execute());
        });
    }

    private static String foldSql(Table t, String partition) {
        String sums = t.summed().stream().map(c -> "sum(" + c + ")").collect(Collectors.joining(", "));
        String maxes = t.largest().stream().map(c -> "max(" + c + ")").collect(Collectors.joining(", "));
        List<String> updates = new ArrayList<>();
        for (String c : t.summed()) {
            updates.add(c + " = CASE WHEN h." + c + " IS NULL THEN excluded." + c + " WHEN excluded." + c
                    + " IS NULL THEN h." + c + " ELSE h." + c + " + excluded." + c + " END");
        }
        for (String c : t.largest()) {
            updates.add(c + " = greatest(h." + c + ", excluded." + c + ")");
        }
        boolean containers = t == CONTAINERS;
        String columns = t.key() + ", hour" + (containers ? ", node" : "") + ", minutes, covered_ms, samples, "
                + String.join(", ", t.summed()) + ", " + String.join(", ", t.largest());
        return """
                WITH src AS (
                    SELECT %s, date_trunc('hour', minute) AS hour%s, count(*)::int AS minutes,
                           sum(covered_ms)::int8 AS covered_ms, sum(samples)::int AS samples, %s, %s
                    FROM ledger.%s
                    GROUP BY %s, date_trunc('hour', minute)),
                written AS (
                    INSERT INTO ledger.%s AS h (%s)
                    SELECT * FROM src
                    %s DO UPDATE SET minutes = h.minutes + excluded.minutes,
                        covered_ms = h.covered_ms + excluded.covered_ms, samples = h.samples + excluded.samples%s, %s
                    RETURNING 1)
                SELECT (SELECT coalesce(sum(minutes), 0) FROM src)::int8 AS minute_rows,
                       (SELECT count(*) FROM written)::int8 AS hour_rows""".formatted(t.key(),
                containers ? ", max(node) AS node" : "", sums, maxes, partition, t.key(), t.hours(), columns, t.onConflict(),
                containers ? ", node = excluded.node" : "", String.join(", ", updates));
    }

    private static long sum(long[] counts, int i) {
        return counts == null ? 0 : counts[i];
    }

    private static Uni<Boolean> drop(SqlConnection conn, String partition) {
        return present(conn, partition).chain(present -> present
                ? conn.query("DROP TABLE ledger." + partition).execute().replaceWith(true)
                : Uni.createFrom().item(false));
    }

    private static Uni<Boolean> present(SqlConnection conn, String partition) {
        return conn.query("SELECT EXISTS (SELECT 1 FROM pg_class WHERE relnamespace = 'ledger'::regnamespace AND relname = '"
                + partition + "') AS present").execute().map(rows -> rows.iterator().next().getBoolean("present"));
    }

    private static Uni<Void> ensureHourPartition(SqlConnection conn, String table, YearMonth month) {
        String name = table + "_p" + MONTH.format(month);
        return conn.query("DO $$BEGIN IF NOT EXISTS (SELECT 1 FROM pg_class WHERE relnamespace = 'ledger'::regnamespace"
                + " AND relname = '" + name + "') THEN CREATE TABLE ledger." + name + " PARTITION OF ledger." + table
                + " FOR VALUES FROM ('" + month.atDay(1) + "T00:00:00Z') TO ('" + month.plusMonths(1).atDay(1)
                + "T00:00:00Z'); END IF; END$$").execute().replaceWithVoid();
    }

    /** The retention's lock and its own statement timeout, as usage retention takes them. */
    private static Uni<Void> lock(SqlConnection conn) {
        return conn.query("SET LOCAL statement_timeout = '1h'").execute()
                .chain(() -> conn.query("SELECT pg_advisory_xact_lock(hashtext('" + RetentionRepository.LOCK + "'))").execute())
                .replaceWithVoid();
    }

    private Uni<List<String>> partitions(String pattern) {
        return pool.query("""
                        SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
                        WHERE i.inhparent IN ('ledger.host_container_minute'::regclass, 'ledger.host_node_minute'::regclass,
                                              'ledger.host_container_hour'::regclass, 'ledger.host_node_hour'::regclass)
                          AND c.relname ~ '%s'""".formatted(pattern))
                .execute()
                .map(rows -> {
                    List<String> out = new ArrayList<>();
                    rows.forEach(r -> out.add(r.getString("relname")));
                    return out;
                });
    }
}
