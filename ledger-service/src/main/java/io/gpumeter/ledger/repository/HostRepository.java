package io.gpumeter.ledger.repository;

import io.gpumeter.common.fact.HostContainerMinute;
import io.gpumeter.common.fact.HostNodeMinute;
import io.gpumeter.ledger.config.LedgerConfig;
import io.gpumeter.ledger.host.domain.HostContainerPoint;
import io.gpumeter.ledger.host.domain.HostNodePoint;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

import static io.gpumeter.ledger.repository.Columns.strings;
import static io.gpumeter.ledger.repository.Columns.times;
import static io.gpumeter.ledger.repository.Columns.values;
import static io.gpumeter.ledger.repository.FactRepository.toOffset;

/** The host books: GPU pods' cgroups and GPU nodes per minute (hours past the minute retention). */
@ApplicationScoped
public class HostRepository {

    static final String CONTAINERS = "host_container_minute";
    static final String NODES = "host_node_minute";
    private static final DateTimeFormatter DAY = DateTimeFormatter.BASIC_ISO_DATE;

    private final Set<String> knownPartitions = ConcurrentHashMap.newKeySet();
    private final Pool pool;
    private final Clock clock;
    private final Duration minuteRetention;

    public HostRepository(Pool pool, Clock clock, LedgerConfig config) {
        this.pool = pool;
        this.clock = clock;
        this.minuteRetention = config.retention().minutes();
    }

    /**
     * Creates the daily partitions of these days of one of the minute tables, once per day and process, under the lock
     * usage intake and the retention take, as {@link UsageRepository#ensurePartitions} does for usage.
     */
    public Uni<Void> ensurePartitions(SqlConnection conn, String table, Set<LocalDate> wanted) {
        Set<LocalDate> days = new TreeSet<>();
        wanted.forEach(d -> {
            if (!knownPartitions.contains(table + d)) {
                days.add(d);
            }
        });
        if (days.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        StringBuilder ddl = new StringBuilder("SELECT pg_advisory_xact_lock(hashtext('" + RetentionRepository.PARTITIONS_LOCK + "'));");
        for (LocalDate day : days) {
            String name = table + "_p" + DAY.format(day);
            ddl.append("DO $$BEGIN IF NOT EXISTS (SELECT 1 FROM pg_class WHERE relnamespace = 'ledger'::regnamespace AND relname = '")
                    .append(name).append("') THEN CREATE TABLE ledger.").append(name).append(" PARTITION OF ledger.")
                    .append(table).append(" FOR VALUES FROM ('").append(day).append("T00:00:00Z') TO ('")
                    .append(day.plusDays(1)).append("T00:00:00Z') WITH (fillfactor = 80); END IF; END$$;");
        }
        LocalDate retained = LocalDate.ofInstant(clock.instant().minus(minuteRetention), ZoneOffset.UTC);
        return conn.query(ddl.toString()).execute()
                .invoke(() -> days.stream().filter(d -> d.isAfter(retained)).forEach(d -> knownPartitions.add(table + d)))
                .replaceWithVoid();
    }

    /**
     * Stores container minutes, one per key (the caller keeps the one covering most); a minute already stored is
     * replaced only by one covering more of it, or as much from more scrapes. Returns how many rows were written.
     */
    public Uni<Integer> storeContainers(SqlConnection conn, String cluster, List<HostContainerMinute> rows) {
        if (rows.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        return conn.preparedQuery("""
                        INSERT INTO ledger.host_container_minute (cluster, namespace, pod, container, minute, node, covered_ms,
                            samples, cpu_seconds, cfs_periods, cfs_throttled_periods, cpu_limit_cores, fs_read_bytes,
                            fs_write_bytes, net_receive_bytes, net_transmit_bytes)
                        SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::text[], $7::int4[],
                            $8::int4[], $9::float8[], $10::float8[], $11::float8[], $12::float8[], $13::float8[], $14::float8[],
                            $15::float8[], $16::float8[])
                        ON CONFLICT (cluster, namespace, pod, container, minute) DO UPDATE SET
                            node = excluded.node, covered_ms = excluded.covered_ms, samples = excluded.samples,
                            cpu_seconds = excluded.cpu_seconds, cfs_periods = excluded.cfs_periods,
                            cfs_throttled_periods = excluded.cfs_throttled_periods, cpu_limit_cores = excluded.cpu_limit_cores,
                            fs_read_bytes = excluded.fs_read_bytes, fs_write_bytes = excluded.fs_write_bytes,
                            net_receive_bytes = excluded.net_receive_bytes, net_transmit_bytes = excluded.net_transmit_bytes
                        WHERE excluded.covered_ms > host_container_minute.covered_ms
                           OR (excluded.covered_ms = host_container_minute.covered_ms
                               AND excluded.samples > host_container_minute.samples)""")
                .execute(Tuple.from(List.of(cluster,
                        strings(rows, HostContainerMinute::namespace), strings(rows, HostContainerMinute::pod),
                        strings(rows, HostContainerMinute::container), times(rows, HostContainerMinute::minute),
                        strings(rows, HostContainerMinute::node),
                        values(rows, HostContainerMinute::coveredMs, Integer[]::new),
                        values(rows, HostContainerMinute::samples, Integer[]::new),
                        values(rows, HostContainerMinute::cpuSeconds, Double[]::new),
                        values(rows, HostContainerMinute::cfsPeriods, Double[]::new),
                        values(rows, HostContainerMinute::cfsThrottledPeriods, Double[]::new),
                        values(rows, HostContainerMinute::cpuLimitCores, Double[]::new),
                        values(rows, HostContainerMinute::fsReadBytes, Double[]::new),
                        values(rows, HostContainerMinute::fsWriteBytes, Double[]::new),
                        values(rows, HostContainerMinute::netReceiveBytes, Double[]::new),
                        values(rows, HostContainerMinute::netTransmitBytes, Double[]::new))))
                .map(result -> result.rowCount());
    }

    /** Stores node minutes as {@link #storeContainers} stores container minutes. */
    public Uni<Integer> storeNodes(SqlConnection conn, String cluster, List<HostNodeMinute> rows) {
        if (rows.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        return conn.preparedQuery("""
                        INSERT INTO ledger.host_node_minute (cluster, node, minute, covered_ms, samples, cpus, cpu_idle_seconds,
                            cpu_iowait_seconds, cpu_user_seconds, cpu_system_seconds, cpu_other_seconds,
                            cpu_pressure_waiting_seconds, io_pressure_stalled_seconds, memory_pressure_stalled_seconds,
                            net_receive_bytes, net_transmit_bytes, net_receive_drops, net_transmit_drops)
                        SELECT $1, * FROM unnest($2::text[], $3::timestamptz[], $4::int4[], $5::int4[], $6::int4[], $7::float8[],
                            $8::float8[], $9::float8[], $10::float8[], $11::float8[], $12::float8[], $13::float8[],
                            $14::float8[], $15::float8[], $16::float8[], $17::float8[], $18::float8[])
                        ON CONFLICT (cluster, node, minute) DO UPDATE SET
                            covered_ms = excluded.covered_ms, samples = excluded.samples, cpus = excluded.cpus,
                            cpu_idle_seconds = excluded.cpu_idle_seconds, cpu_iowait_seconds = excluded.cpu_iowait_seconds,
                            cpu_user_seconds = excluded.cpu_user_seconds, cpu_system_seconds = excluded.cpu_system_seconds,
                            cpu_other_seconds = excluded.cpu_other_seconds,
                            cpu_pressure_waiting_seconds = excluded.cpu_pressure_waiting_seconds,
                            io_pressure_stalled_seconds = excluded.io_pressure_stalled_seconds,
                            memory_pressure_stalled_seconds = excluded.memory_pressure_stalled_seconds,
                            net_receive_bytes = excluded.net_receive_bytes, net_transmit_bytes = excluded.net_transmit_bytes,
                            net_receive_drops = excluded.net_receive_drops, net_transmit_drops = excluded.net_transmit_drops
                        WHERE excluded.covered_ms > host_node_minute.covered_ms
                           OR (excluded.covered_ms = host_node_minute.covered_ms AND excluded.samples > host_node_minute.samples)""")
                .execute(Tuple.from(List.of(cluster,
                        strings(rows, HostNodeMinute::node), times(rows, HostNodeMinute::minute),
                        values(rows, HostNodeMinute::coveredMs, Integer[]::new),
                        values(rows, HostNodeMinute::samples, Integer[]::new),
                        values(rows, HostNodeMinute::cpus, Integer[]::new),
                        values(rows, HostNodeMinute::cpuIdleSeconds, Double[]::new),
                        values(rows, HostNodeMinute::cpuIowaitSeconds, Double[]::new),
                        values(rows, HostNodeMinute::cpuUserSeconds, Double[]::new),
                        values(rows, HostNodeMinute::cpuSystemSeconds, Double[]::new),
                        values(rows, HostNodeMinute::cpuOtherSeconds, Double[]::new),
                        values(rows, HostNodeMinute::cpuPressureWaitingSeconds, Double[]::new),
                        values(rows, HostNodeMinute::ioPressureStalledSeconds, Double[]::new),
                        values(rows, HostNodeMinute::memoryPressureStalledSeconds, Double[]::new),
                        values(rows, HostNodeMinute::netReceiveBytes, Double[]::new),
                        values(rows, HostNodeMinute::netTransmitBytes, Double[]::new),
                        values(rows, HostNodeMinute::netReceiveDrops, Double[]::new),
                        values(rows, HostNodeMinute::netTransmitDrops, Double[]::new))))
                .map(result -> result.rowCount());
    }

    /**
     * The spans (minutes, else hours) of these pods' cgroups of one cluster over a window; an hour
     * overlapping the window's start is included whole.
     */
    public Uni<List<HostContainerPoint>> containers(String cluster, Collection<String> pods, Instant from, Instant to) {
        if (pods.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        String[] namespaces = pods.stream().map(p -> p.substring(0, p.indexOf('/'))).toArray(String[]::new);
        String[] names = pods.stream().map(p -> p.substring(p.indexOf('/') + 1)).toArray(String[]::new);
        return pool.preparedQuery("""
                        SELECT h.* , extract(epoch FROM h.span)::int AS span_seconds FROM ledger.host_container_rollup h
                        JOIN unnest($1::text[], $2::text[]) AS p(ns, pod) ON h.namespace = p.ns AND h.pod = p.pod
                        WHERE h.cluster = $3 AND h.at >= date_trunc('hour', $4::timestamptz)
                          AND h.at + h.span > $4 AND h.at < $5
                        ORDER BY h.cluster, h.namespace, h.pod, h.container, h.at""")
                .execute(Tuple.of(namespaces, names, cluster, toOffset(from), toOffset(to)))
                .map(rows -> {
                    List<HostContainerPoint> out = new ArrayList<>();
                    rows.forEach(r -> out.add(new HostContainerPoint(r.getString("cluster"), r.getString("namespace"),
                            r.getString("pod"), r.getString("container"), r.getString("node"), at(r),
                            r.getInteger("span_seconds"), r.getInteger("minutes"), r.getLong("covered_ms") / 1000.0,
                            r.getInteger("samples"), r.getDouble("cpu_seconds"), r.getDouble("cfs_periods"),
                            r.getDouble("cfs_throttled_periods"), r.getDouble("cpu_limit_cores"),
                            r.getDouble("fs_read_bytes"), r.getDouble("fs_write_bytes"), r.getDouble("net_receive_bytes"),
                            r.getDouble("net_transmit_bytes"))));
                    return out;
                });
    }

    /** The spans (minutes, else hours) of these nodes of one cluster over a window. */
    public Uni<List<HostNodePoint>> nodes(String cluster, Collection<String> nodes, Instant from, Instant to) {
        if (nodes.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return pool.preparedQuery("""
                        SELECT h.*, extract(epoch FROM h.span)::int AS span_seconds FROM ledger.host_node_rollup h
                        WHERE h.cluster = $2 AND h.node = ANY($1)
                          AND h.at >= date_trunc('hour', $3::timestamptz) AND h.at + h.span > $3 AND h.at < $4
                        ORDER BY h.cluster, h.node, h.at""")
                .execute(Tuple.of(nodes.toArray(String[]::new), cluster, toOffset(from), toOffset(to)))
                .map(rows -> {
                    List<HostNodePoint> out = new ArrayList<>();
                    rows.forEach(r -> out.add(new HostNodePoint(r.getString("cluster"), r.getString("node"), at(r),
                            r.getInteger("span_seconds"), r.getInteger("minutes"), r.getLong("covered_ms") / 1000.0,
                            r.getInteger("samples"), r.getInteger("cpus"), r.getDouble("cpu_idle_seconds"),
                            r.getDouble("cpu_iowait_seconds"), r.getDouble("cpu_user_seconds"),
                            r.getDouble("cpu_system_seconds"), r.getDouble("cpu_other_seconds"),
                            r.getDouble("cpu_pressure_waiting_seconds"), r.getDouble("io_pressure_stalled_seconds"),
                            r.getDouble("memory_pressure_stalled_seconds"), r.getDouble("net_receive_bytes"),
                            r.getDouble("net_transmit_bytes"), r.getDouble("net_receive_drops"),
                            r.getDouble("net_transmit_drops"))));
                    return out;
                });
    }

    private static Instant at(Row r) {
        return r.getOffsetDateTime("at").toInstant();
    }
}
