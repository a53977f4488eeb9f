package io.gpumeter.alert.repository;

import io.gpumeter.alert.domain.ReceivedAlert;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.Arrays;
import java.util.TreeMap;

/**
 * Alerts received through Alertmanager's webhook, each once per fingerprint and startsAt, with what a delivery
 * changed: Alertmanager retries and repeats notifications, and only a change may trigger the runbook.
 */
@ApplicationScoped
public class ReceivedRepository {

    /** What one delivered alert changed. */
    public enum Change {
        /** First seen, firing: run the runbook's actions. */
        FIRED,
        /** Was firing, now resolved: undo what the runbook says to undo. */
        RESOLVED,
        /** First seen already resolved: nothing was done for it, nothing to undo. */
        RESOLVED_UNSEEN,
        /**
         * Resolved, but with labels other than those it fired with: forged or mistaken, so it changes nothing and the
         * alert stays firing.
         */
        RESOLVE_REFUSED,
        /** Nothing new. */
        DUPLICATE
    }

    private final Pool pool;

    public ReceivedRepository(Pool pool) {
        this.pool = pool;
    }

    /** Records the alert; one delivery at a time per fingerprint decides what changed. */
    public Uni<Change> record(ReceivedAlert a, String receiver, String groupKey, Instant now) {
        return pool.withTransaction(conn -> conn
                .preparedQuery("SELECT pg_advisory_xact_lock(hashtext('gpumeter.alert.received'), hashtext($1))")
                .execute(Tuple.of(a.fingerprint()))
                .chain(() -> conn.preparedQuery("SELECT status, labels FROM alert.received WHERE fingerprint = $1 AND starts_at = $2")
                        .execute(Tuple.of(a.fingerprint(), Sql.ts(a.startsAt()))))
                .chain(rows -> {
                    Row stored = rows.size() == 0 ? null : rows.iterator().next();
                    String before = stored == null ? null : stored.getString("status");
                    String status = a.firing() ? "firing" : "resolved";
                    if (before == null) {
                        return conn.preparedQuery("""
                                        INSERT INTO alert.received (fingerprint, starts_at, alertname, status, labels, annotations,
                                            ends_at, generator_url, receiver, group_key, first_received_at, last_received_at,
                                            resolved_at)
                                        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11, $12)""")
                                .execute(Tuple.from(Arrays.asList(a.fingerprint(), Sql.ts(a.startsAt()), a.alertname(), status,
                                        Sql.json(a.labels()), Sql.json(a.annotations()), Sql.ts(a.endsAt()), a.generatorUrl(),
                                        receiver, groupKey, Sql.ts(now), a.firing() ? null : Sql.ts(now))))
                                .map(ignored -> a.firing() ? Change.FIRED : Change.RESOLVED_UNSEEN);
                    }
                    boolean resolves = "firing".equals(before) && !a.firing();
                    // The fingerprint is the sender's word; the labels stored when the alert fired are ours.
                    if (resolves && !Sql.strings(stored, "labels").equals(new TreeMap<>(a.labels()))) {
                        return Uni.createFrom().item(Change.RESOLVE_REFUSED);
                    }
                    return conn.preparedQuery("""
                                    UPDATE alert.received SET last_received_at = $3, deliveries = deliveries + 1,
                                        status = CASE WHEN $4 THEN 'resolved' ELSE status END,
                                        ends_at = CASE WHEN $4 THEN $5 ELSE ends_at END,
                                        resolved_at = CASE WHEN $4 THEN $3 ELSE resolved_at END,
                                        annotations = CASE WHEN status = 'firing' THEN $6 ELSE annotations END
                                    WHERE fingerprint = $1 AND starts_at = $2""")
                            .execute(Tuple.from(Arrays.asList(a.fingerprint(), Sql.ts(a.startsAt()), Sql.ts(now), resolves,
                                    Sql.ts(a.endsAt() == null ? now : a.endsAt()), Sql.json(a.annotations()))))
                            .map(ignored -> resolves ? Change.RESOLVED : Change.DUPLICATE);
                }));
    }
}
