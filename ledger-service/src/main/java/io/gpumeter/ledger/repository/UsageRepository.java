package io.gpumeter.ledger.repository;

import io.gpumeter.ledger.config.LedgerConfig;
import io.gpumeter.ledger.usage.domain.UsagePoint;
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
import java.util.HashMap;
import java.util.Map;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

import static io.gpumeter.ledger.repository.FactRepository.toOffset;

/**
 * The used ledger: per-minute rollups of usage series (the pod-to-card bindings the exporters reveal are
 * {@link GpuBindingRepository}'s).
 */
@ApplicationScoped
public class UsageRepository {

    private static final DateTimeFormatter DAY = DateTimeFormatter.BASIC_ISO_DATE;
    private final Set<LocalDate> knownPartitions = ConcurrentHashMap.newKeySet();
    private final Pool pool;
    private final Clock clock;
    private final Duration minuteRetention;

    public UsageRepository(Pool pool, Clock clock, LedgerConfig config) {
        this.pool = pool;
        this.clock = clock;
        this.minuteRetention = config.retention().minutes();
    }

    /**
     * Creates the daily partitions of these days, once per day and process. A minute row may be rewritten by later
     * deliveries of its minute; free room in each page lets PostgreSQL do that without touching the index. A day the
     * minute retention may already have folded into hours and dropped (by this or another replica) is never taken
     * as known: a late delivery for it creates its partition again under the same lock the retention job takes, and
     * the job's next run folds those minutes into the hours too.
     */
    public Uni<Void> ensurePartitions(SqlConnection conn, Set<LocalDate> wanted) {
        Set<LocalDate> days = new TreeSet<>(wanted);
        days.removeAll(knownPartitions);
        if (days.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        StringBuilder ddl = new StringBuilder("SELECT pg_advisory_xact_lock(hashtext('gpumeter.ledger.partitions'));");
        for (LocalDate day : days) {
            // Created only when missing: a late day's partition is looked for on every delivery, without a notice.
            String name = "ledger.usage_minute_p" + DAY.format(day);
            // pg_class read with the statement's snapshot, not to_regclass's cache: a partition another replica's
            // retention dropped while this transaction waited for the lock is seen gone.
            ddl.append("DO $$BEGIN IF NOT EXISTS (SELECT 1 FROM pg_class WHERE relnamespace = 'ledger'::regnamespace AND relname = '")
                    .append(name.substring("ledger.".length())).append("') THEN CREATE TABLE ").append(name)
                    .append(" PARTITION OF ledger.usage_minute FOR VALUES FROM ('").append(day).append("T00:00:00Z') TO ('")
                    .append(day.plusDays(1)).append("T00:00:00Z') WITH (fillfactor = 70); END IF; END$$;");
        }
        LocalDate retained = LocalDate.ofInstant(clock.instant().minus(minuteRetention), ZoneOffset.UTC);
        return conn.query(ddl.toString()).execute()
                .invoke(() -> days.stream().filter(d -> d.isAfter(retained)).forEach(knownPartitions::add))
                .replaceWithVoid();
    }

    /**
     * Creates the missing partitions of these days in a transaction of its own, committed before a delivery's: a
     * partition's creation locks the whole table, and a delivery that created one while its rows wait for the
     * cluster's ingest lock (which a delivery writing derived counter minutes holds) would deadlock with it.
     */
    public Uni<Void> createPartitions(Set<LocalDate> wanted) {
        return hasPartitions(wanted) ? Uni.createFrom().voidItem()
                : pool.withTransaction(conn -> ensurePartitions(conn, wanted));
    }

    /** Whether this process knows the partitions of all these days made and still kept by the retention. */
    public boolean hasPartitions(Set<LocalDate> days) {
        return knownPartitions.containsAll(days);
    }

    /**
     * The rollups of one card's series over a window, optionally one field only: minutes where the minute retention
     * keeps them, hours before it (an hour overlapping the window's start is included whole).
     */
    public Uni<List<UsagePoint>> series(String gpuUuid, String field, Instant from, Instant to) {
        return pool.preparedQuery("""
                        SELECT scope, scope_key, field, at, extract(epoch FROM span)::int AS span_seconds, mean, max, samples FROM ledger.usage_rollup
                        WHERE gpu_uuid = $1 AND at >= date_trunc('hour', $2::timestamptz) AND at + span > $2 AND at < $3
                          AND ($4::text IS NULL OR field = $4)
                        ORDER BY field, scope, scope_key, at""")
                .execute(Tuple.of(gpuUuid, toOffset(from), toOffset(to), field))
                .map(rows -> {
                    List<UsagePoint> out = new ArrayList<>();
                    rows.forEach(r -> out.add(new UsagePoint(r.getString("scope"), r.getString("scope_key"), r.getString("field"),
                            r.getOffsetDateTime("at").toInstant(), r.getDouble("mean"), r.getDouble("max"),
                            r.getInteger("samples"), spanSeconds(r))));
                    return out;
                });
    }

    /**
     * The rollups (minutes, else hours) of several cards' series over a window, of these fields only (every field when
     * null), by card.
     */
    public Uni<Map<String, List<UsagePoint>>> seriesOfCards(List<String> gpuUuids, List<String> fields, Instant from,
                                                            Instant to) {
        return pool.preparedQuery("""
                        SELECT gpu_uuid, scope, scope_key, field, at, extract(epoch FROM span)::int AS span_seconds, mean, max, samples FROM ledger.usage_rollup
                        WHERE gpu_uuid = ANY($1) AND at >= date_trunc('hour', $2::timestamptz) AND at + span > $2 AND at < $3
                          AND ($4::text[] IS NULL OR field = ANY($4))
                        ORDER BY gpu_uuid, field, scope, scope_key, at""")
                .execute(Tuple.of(gpuUuids.toArray(String[]::new), toOffset(from), toOffset(to),
                        fields == null ? null : fields.toArray(String[]::new)))
                .map(rows -> {
                    Map<String, List<UsagePoint>> out = new HashMap<>();
                    rows.forEach(r -> out.computeIfAbsent(r.getString("gpu_uuid"), g -> new ArrayList<>()).add(
                            new UsagePoint(r.getString("scope"), r.getString("scope_key"), r.getString("field"),
                                    r.getOffsetDateTime("at").toInstant(), r.getDouble("mean"), r.getDouble("max"),
                                    r.getInteger("samples"), spanSeconds(r))));
                    return out;
                });
    }

    private static int spanSeconds(Row r) {
        return r.getInteger("span_seconds");
    }
}
