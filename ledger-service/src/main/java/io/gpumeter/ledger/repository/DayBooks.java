package io.gpumeter.ledger.repository;

import io.gpumeter.common.domain.TimeWindow;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.gpumeter.ledger.repository.FactRepository.toOffset;

/**
 * The answers of reports over days that are over, each valid while no fact of its days changed after the snapshot
 * it was computed in (V40__day_books.sql: the writes' triggers record the days they touch).
 */
@ApplicationScoped
public class DayBooks {

    /** A day's stored answer, or one to store. */
    public record Answer(TimeWindow day, JsonArray rows) {
    }

    private final Pool pool;

    public DayBooks(Pool pool) {
        this.pool = pool;
    }

    /**
     * The transaction snapshot to compute answers in: taken before the facts are read, so that every change the read
     * may miss is one the snapshot does not see either.
     */
    public Uni<String> snapshot() {
        return pool.query("SELECT pg_current_snapshot()::text AS s").execute()
                .map(rows -> rows.iterator().next().getString("s"));
    }

    /** The valid stored answers among these days, keyed by the day's start. */
    public Uni<Map<Instant, JsonArray>> valid(String kind, String shape, List<TimeWindow> days) {
        if (days.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return pool.preparedQuery("""
                        SELECT a.day_start, a.rows::text AS rows
                        FROM ledger.day_answer a
                        JOIN unnest($3::timestamptz[], $4::timestamptz[]) AS d(day_start, day_end)
                          ON a.day_start = d.day_start AND a.day_end = d.day_end
                        WHERE a.kind = $1 AND a.shape = $2
                          AND NOT EXISTS (SELECT 1 FROM ledger.book_change c
                                          WHERE c.days && a.days AND NOT pg_visible_in_snapshot(c.xid, a.snapshot))""")
                .execute(Tuple.of(kind, shape, starts(days), ends(days)))
                .map(rows -> {
                    Map<Instant, JsonArray> out = new HashMap<>();
                    for (Row r : rows) {
                        out.put(r.getOffsetDateTime("day_start").toInstant(), new JsonArray(r.getString("rows")));
                    }
                    return out;
                });
    }

    /**
     * Stores answers computed in {@code snapshot}, a day a statement (a day of the idle split at 10,000 GPUs is a few
     * megabytes); a day stored meanwhile by another read is replaced, both being valid for their own snapshot. The
     * facts an answer read are those of the UTC days from the hour of its start (a read of usage rows begins at the
     * hour: in a zone half an hour off UTC, in the hour before) to its end.
     */
    public Uni<Void> store(String kind, String shape, String snapshot, List<Answer> answers) {
        return Multi.createFrom().iterable(answers).onItem().transformToUniAndConcatenate(a -> pool.preparedQuery("""
                        INSERT INTO ledger.day_answer AS a (kind, shape, day_start, day_end, days, snapshot, rows)
                        VALUES ($1, $2, $3::timestamptz, $4::timestamptz,
                                daterange(date_trunc('hour', $3::timestamptz AT TIME ZONE 'UTC')::date,
                                          (($4::timestamptz - interval '1 microsecond') AT TIME ZONE 'UTC')::date, '[]'),
                                $5::pg_snapshot, $6::text::jsonb)
                        ON CONFLICT (kind, shape, day_start, day_end) DO UPDATE SET days = excluded.days,
                            snapshot = excluded.snapshot, rows = excluded.rows, stored_at = now()""")
                        .execute(Tuple.of(kind, shape, toOffset(a.day().start()), toOffset(a.day().end()), snapshot,
                                a.rows().encode())))
                .collect().last().replaceWithVoid();
    }

    /**
     * Forgets what no answer can need any more, in one transaction: samples the oldest running transaction, drops the
     * answers made stale by changes older than the newest sample at least {@code grace} old, then those changes (every
     * answer computed in a snapshot taken since sees them, and no answer takes longer than {@code grace} to be
     * stored), and the answers stored before {@code keep}.
     */
    public Uni<Void> prune(Duration grace, Duration keep) {
        Tuple graceSeconds = Tuple.of((double) grace.toSeconds());
        return pool.withTransaction(conn -> conn.query("""
                        INSERT INTO ledger.book_horizon (at, oldest) VALUES (now(), pg_snapshot_xmin(pg_current_snapshot()))
                        ON CONFLICT (at) DO NOTHING""").execute()
                .chain(() -> conn.preparedQuery("""
                        WITH h AS (SELECT max(oldest) AS oldest FROM ledger.book_horizon WHERE at <= now() - make_interval(secs => $1))
                        DELETE FROM ledger.day_answer a USING h
                        WHERE EXISTS (SELECT 1 FROM ledger.book_change c WHERE c.xid < h.oldest AND c.days && a.days
                                        AND NOT pg_visible_in_snapshot(c.xid, a.snapshot))""").execute(graceSeconds))
                .chain(() -> conn.preparedQuery("""
                        DELETE FROM ledger.book_change
                        WHERE xid < (SELECT max(oldest) FROM ledger.book_horizon WHERE at <= now() - make_interval(secs => $1))""")
                        .execute(graceSeconds))
                .chain(() -> conn.preparedQuery("""
                        DELETE FROM ledger.book_horizon
                        WHERE at < (SELECT max(at) FROM ledger.book_horizon WHERE at <= now() - make_interval(secs => $1))""")
                        .execute(graceSeconds))
                .chain(() -> conn.preparedQuery("DELETE FROM ledger.day_answer WHERE stored_at < now() - make_interval(secs => $1)")
                        .execute(Tuple.of((double) keep.toSeconds())))
                .replaceWithVoid());
    }

    /** Records that facts of these UTC days changed, for writes no trigger sees (a partition dropped whole). */
    public static String touchSql(LocalDate fromDay, LocalDate toDay) {
        return "INSERT INTO ledger.book_change (days) VALUES (daterange('" + fromDay + "', '" + toDay + "', '[]'))";
    }

    private static OffsetDateTime[] starts(List<TimeWindow> days) {
        return days.stream().map(d -> toOffset(d.start())).toArray(OffsetDateTime[]::new);
    }

    private static OffsetDateTime[] ends(List<TimeWindow> days) {
        return days.stream().map(d -> toOffset(d.end())).toArray(OffsetDateTime[]::new);
    }
}
