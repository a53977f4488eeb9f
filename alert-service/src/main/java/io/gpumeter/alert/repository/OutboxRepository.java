package io.gpumeter.alert.repository;

import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The outbox of alerts for Alertmanager: the newest state of each episode, kept until a POST succeeds. A newer state
 * of the same episode replaces a pending one (Alertmanager needs only the newest); it keeps the back-off.
 */
@ApplicationScoped
public class OutboxRepository {

    /** One pending alert. */
    public record Pending(String fingerprint, Instant startsAt, JsonObject payload, long version, int attempts) {
    }

    /** How many alerts wait, and since when the oldest. */
    public record Backlog(long alerts, Instant oldest) {
    }

    private final Pool pool;

    public OutboxRepository(Pool pool) {
        this.pool = pool;
    }

    public Uni<Void> enqueue(SqlClient conn, String fingerprint, Instant startsAt, JsonObject payload, Instant now) {
        return conn.preparedQuery("""
                        INSERT INTO alert.outbox (fingerprint, starts_at, payload, version, enqueued_at, next_attempt_at)
                        VALUES ($1, $2, $3, nextval('alert.outbox_version'), $4, $4)
                        ON CONFLICT (fingerprint, starts_at) DO UPDATE SET payload = EXCLUDED.payload,
                            version = EXCLUDED.version""")
                .execute(Tuple.of(fingerprint, Sql.ts(startsAt), payload, Sql.ts(now)))
                .replaceWithVoid();
    }

    public Uni<List<Pending>> due(Instant now, int limit) {
        return pool.preparedQuery("""
                        SELECT fingerprint, starts_at, payload, version, attempts FROM alert.outbox
                        WHERE next_attempt_at <= $1 ORDER BY enqueued_at, fingerprint LIMIT $2""")
                .execute(Tuple.of(Sql.ts(now), limit))
                .map(rows -> {
                    List<Pending> out = new ArrayList<>();
                    rows.forEach(r -> out.add(new Pending(r.getString("fingerprint"), Sql.instant(r, "starts_at"),
                            r.getJsonObject("payload"), r.getLong("version"), r.getInteger("attempts"))));
                    return out;
                });
    }

    /** Removes what Alertmanager accepted, unless a newer state arrived meanwhile. */
    public Uni<Void> delivered(List<Pending> sent) {
        return pool.preparedQuery("""
                        DELETE FROM alert.outbox o USING unnest($1::text[], $2::timestamptz[], $3::bigint[]) AS s(f, t, v)
                        WHERE o.fingerprint = s.f AND o.starts_at = s.t AND o.version = s.v""")
                .execute(Tuple.of(sent.stream().map(Pending::fingerprint).toArray(String[]::new),
                        sent.stream().map(p -> Sql.ts(p.startsAt())).toArray(OffsetDateTime[]::new),
                        sent.stream().map(Pending::version).toArray(Long[]::new)))
                .replaceWithVoid();
    }

    /** Counts a failed attempt and sets the next one {@code pause} later. */
    public Uni<Void> failed(List<Pending> sent, Instant now, Duration pause, String error) {
        return pool.preparedQuery("""
                        UPDATE alert.outbox o SET attempts = o.attempts + 1, next_attempt_at = $3, last_error = $4
                        FROM unnest($1::text[], $2::timestamptz[]) AS s(f, t)
                        WHERE o.fingerprint = s.f AND o.starts_at = s.t""")
                .execute(Tuple.from(Arrays.asList(sent.stream().map(Pending::fingerprint).toArray(String[]::new),
                        sent.stream().map(p -> Sql.ts(p.startsAt())).toArray(OffsetDateTime[]::new),
                        Sql.ts(now.plus(pause)), error)))
                .replaceWithVoid();
    }

    public Uni<Backlog> backlog() {
        return pool.query("SELECT count(*) AS n, min(enqueued_at) AS oldest FROM alert.outbox").execute()
                .map(rows -> {
                    var r = rows.iterator().next();
                    return new Backlog(r.getLong("n"), Sql.instant(r, "oldest"));
                });
    }
}
