package io.gpumeter.slo.repository;

import io.gpumeter.common.problem.Page;
import io.gpumeter.common.problem.Window;
import io.gpumeter.common.sql.PagedQuery;
import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.slo.domain.Sli;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.sqlclient.data.Numeric;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** Jitter events in schema slo, one per SLO and run of bad minutes; a run that touches a stored event extends it. */
@ApplicationScoped
public class JitterEventRepository {

    /**
     * A latency SLO, the yardstick of its service's jitter: the service of one namespace, or (null) a legacy SLO's,
     * which a detection pins to the only namespace that reported the service.
     */
    public record LatencySlo(String name, String service, String namespace, Sli sli, BigDecimal thresholdMs) {

        public LatencySlo in(String ns) {
            return new LatencySlo(name, service, ns, sli, thresholdMs);
        }
    }

    /**
     * A stored event; {@code evidence} is its JSON, {@code topSuspect}/{@code topScore} read from it; namespace null
     * for an event stored before services belonged to a namespace whose evidence did not tell it.
     */
    public record StoredEvent(long id, String slo, String service, String namespace, Sli sli, Instant start,
                              Instant end, int badMinutes, double peakP99Ms, BigDecimal thresholdMs,
                              BigDecimal factor, String evidence, String topSuspect, Double topScore,
                              Instant detectedAt, Instant updatedAt) {
    }

    /** An event to store: {@code [start, end)} and what was found about it. */
    public record NewEvent(LatencySlo slo, Instant start, Instant end, int badMinutes, double peakP99Ms,
                           BigDecimal factor, String evidence) {
    }

    /** The stored event's id, and whether this write created it (rather than extending or refreshing one). */
    public record Saved(long id, boolean created) {
    }

    private static final String COLUMNS = """
            id, slo, service, namespace, sli, started_at, ended_at, bad_minutes, peak_p99_ms, threshold_ms, factor,
            detected_at, updated_at, evidence -> 'suspects' -> 0 ->> 'key' AS top_suspect,
            (evidence -> 'suspects' -> 0 ->> 'score')::double precision AS top_score""";

    private final Pool pool;

    public JitterEventRepository(Pool pool) {
        this.pool = pool;
    }

    /**
     * Every service SLO over a latency SLI. Tenant SLOs are left out: jitter is judged on a service's merged minutes,
     * which a tenant selector does not have.
     */
    public Uni<List<LatencySlo>> latencySlos() {
        return pool.preparedQuery("""
                        SELECT name, service, namespace, sli, objective_threshold_ms FROM slo.slo_definition
                        WHERE sli <> 'AVAILABILITY' AND tenant IS NULL
                        ORDER BY name""")
                .execute()
                .map(rows -> {
                    List<LatencySlo> out = new ArrayList<>();
                    rows.forEach(r -> out.add(new LatencySlo(r.getString("name"), r.getString("service"),
                            r.getString("namespace"), Sli.valueOf(r.getString("sli")),
                            r.getBigDecimal("objective_threshold_ms"))));
                    return out;
                });
    }

    /** Events of an SLO that overlap or adjoin {@code [start, end)}, oldest first. */
    public Uni<List<StoredEvent>> touching(String slo, Instant start, Instant end) {
        return touching(pool, slo, start, end);
    }

    private static Uni<List<StoredEvent>> touching(SqlClient client, String slo,
                                                   Instant start, Instant end) {
        return client.preparedQuery("SELECT " + COLUMNS + ", NULL AS evidence_text FROM slo.jitter_event"
                        + " WHERE slo = $1 AND started_at <= $3 AND ended_at >= $2 ORDER BY id")
                .execute(Tuple.of(slo, offset(start), offset(end))).map(JitterEventRepository::events);
    }

    /**
     * Stores an event, merging it with the events of its SLO it overlaps or adjoins: the oldest of them keeps its id
     * and takes the union of their spans, the others are removed. Writers of one SLO take turns.
     */
    public Uni<Saved> save(NewEvent e) {
        return pool.withTransaction(conn -> conn
                .preparedQuery("SELECT pg_advisory_xact_lock(hashtext('gpumeter.slo.jitter/' || $1))")
                .execute(Tuple.of(e.slo().name()))
                .chain(() -> touching(conn, e.slo().name(), e.start(), e.end()))
                .chain(found -> found.isEmpty() ? insert(conn, e) : merge(conn, e, found)));
    }

    private static Uni<Saved> insert(SqlConnection conn, NewEvent e) {
        return conn.preparedQuery("""
                        INSERT INTO slo.jitter_event (slo, service, namespace, sli, started_at, ended_at, bad_minutes,
                                                      peak_p99_ms, threshold_ms, factor, evidence, detected_at,
                                                      updated_at)
                        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::text::jsonb, now(), now()) RETURNING id""")
                .execute(Tuple.from(Arrays.asList(e.slo().name(), e.slo().service(), e.slo().namespace(),
                        e.slo().sli().name(), offset(e.start()), offset(e.end()), e.badMinutes(), e.peakP99Ms(),
                        Numeric.create(e.slo().thresholdMs()), Numeric.create(e.factor()), e.evidence())))
                .map(rows -> new Saved(rows.iterator().next().getLong("id"), true));
    }

    private static Uni<Saved> merge(SqlConnection conn, NewEvent e, List<StoredEvent> found) {
        StoredEvent keep = found.get(0);
        Instant start = e.start();
        Instant end = e.end();
        for (StoredEvent f : found) {
            start = f.start().isBefore(start) ? f.start() : start;
            end = f.end().isAfter(end) ? f.end() : end;
        }
        Long[] others = found.stream().skip(1).map(StoredEvent::id).toArray(Long[]::new);
        Instant mergedStart = start;
        Instant mergedEnd = end;
        return conn.preparedQuery("DELETE FROM slo.jitter_event WHERE id = ANY($1)").execute(Tuple.of(others))
                .chain(() -> conn.preparedQuery("""
                                UPDATE slo.jitter_event SET started_at = $2, ended_at = $3, bad_minutes = $4,
                                       peak_p99_ms = $5, threshold_ms = $6, factor = $7, evidence = $8::text::jsonb,
                                       service = $9, namespace = $10, updated_at = now()
                                WHERE id = $1""")
                        .execute(Tuple.from(Arrays.asList(keep.id(), offset(mergedStart), offset(mergedEnd),
                                Math.max(e.badMinutes(), keep.badMinutes()), Math.max(e.peakP99Ms(), keep.peakP99Ms()),
                                Numeric.create(e.slo().thresholdMs()), Numeric.create(e.factor()), e.evidence(),
                                e.slo().service(), e.slo().namespace()))))
                .map(done -> new Saved(keep.id(), false));
    }

    /**
     * Events that overlap the window, of one service or (null) all, of the service's one namespace or (null) any, in
     * start order.
     */
    public Uni<Page<StoredEvent>> list(TimeWindow window, String service, String namespace, Window page) {
        return PagedQuery.run(pool, COLUMNS + ", NULL AS evidence_text",
                "FROM slo.jitter_event WHERE started_at < $2 AND ended_at > $1 AND ($3::text IS NULL OR service = $3)"
                        + " AND ($4::text IS NULL OR namespace = $4)",
                "started_at, slo", Arrays.asList(offset(window.start()), offset(window.end()), service, namespace),
                page, JitterEventRepository::event);
    }

    /** The namespaces of the events of a service that overlap the window, in name order. */
    public Uni<List<String>> namespacesOf(String service, TimeWindow window) {
        return pool.preparedQuery("""
                        SELECT DISTINCT namespace FROM slo.jitter_event
                        WHERE started_at < $2 AND ended_at > $1 AND service = $3 AND namespace IS NOT NULL
                        ORDER BY namespace""")
                .execute(Tuple.of(offset(window.start()), offset(window.end()), service))
                .map(rows -> {
                    List<String> out = new ArrayList<>();
                    rows.forEach(r -> out.add(r.getString("namespace")));
                    return out;
                });
    }

    /** The pods ("namespace/pod") each of these events' evidence names, by event id; an event naming none is missing. */
    public Uni<Map<Long, Set<String>>> pods(Collection<Long> ids) {
        if (ids.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return pool.preparedQuery("""
                        SELECT e.id, p ->> 'namespace' AS namespace, p ->> 'pod' AS pod
                        FROM slo.jitter_event e CROSS JOIN LATERAL jsonb_array_elements(
                            CASE WHEN jsonb_typeof(e.evidence -> 'pods') = 'array' THEN e.evidence -> 'pods' ELSE '[]' END) p
                        WHERE e.id = ANY($1)""")
                .execute(Tuple.of(ids.toArray(Long[]::new)))
                .map(rows -> {
                    Map<Long, Set<String>> out = new HashMap<>();
                    for (Row r : rows) {
                        if (r.getString("namespace") != null && r.getString("pod") != null) {
                            out.computeIfAbsent(r.getLong("id"), id -> new TreeSet<>())
                                    .add(r.getString("namespace") + "/" + r.getString("pod"));
                        }
                    }
                    return out;
                });
    }

    /** The events that started in {@code [from, to)}, in start order, without their evidence. */
    public Uni<List<StoredEvent>> startedIn(Instant from, Instant to) {
        return pool.preparedQuery("SELECT " + COLUMNS + ", NULL AS evidence_text FROM slo.jitter_event"
                        + " WHERE started_at >= $1 AND started_at < $2 ORDER BY started_at, id")
                .execute(Tuple.of(offset(from), offset(to))).map(JitterEventRepository::events);
    }

    /** One event with its evidence, or null. */
    public Uni<StoredEvent> byId(long id) {
        return pool.preparedQuery("SELECT " + COLUMNS + ", evidence::text AS evidence_text FROM slo.jitter_event"
                        + " WHERE id = $1")
                .execute(Tuple.of(id)).map(rows -> {
                    List<StoredEvent> events = events(rows);
                    return events.isEmpty() ? null : events.get(0);
                });
    }

    private static List<StoredEvent> events(RowSet<Row> rows) {
        List<StoredEvent> out = new ArrayList<>();
        for (Row r : rows) {
            out.add(event(r));
        }
        return out;
    }

    private static StoredEvent event(Row r) {
        return new StoredEvent(r.getLong("id"), r.getString("slo"), r.getString("service"), r.getString("namespace"),
                Sli.valueOf(r.getString("sli")), instant(r, "started_at"), instant(r, "ended_at"),
                r.getInteger("bad_minutes"), r.getDouble("peak_p99_ms"), r.getBigDecimal("threshold_ms"),
                r.getBigDecimal("factor"), r.getString("evidence_text"), r.getString("top_suspect"),
                r.getDouble("top_score"), instant(r, "detected_at"), instant(r, "updated_at"));
    }

    private static Instant instant(Row r, String column) {
        return r.getOffsetDateTime(column).toInstant();
    }

    private static OffsetDateTime offset(Instant t) {
        return t.atOffset(ZoneOffset.UTC);
    }
}
