package io.gpumeter.alert.repository;

import io.gpumeter.alert.domain.ActionKind;
import io.gpumeter.alert.domain.ActionMode;
import io.gpumeter.alert.domain.ActionPolicy;
import io.gpumeter.alert.domain.ActionResult;
import io.gpumeter.alert.domain.ReceivedAlert;
import io.gpumeter.common.problem.Page;
import io.gpumeter.common.problem.Window;
import io.gpumeter.common.sql.PagedQuery;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The audit of runbook actions. Claims are serialised per action kind, so that counts for the rate limit and the
 * blast radius never race, and each alert episode gets at most one row per action.
 */
@ApplicationScoped
public class ActionRepository {

    private static final String COLUMNS = "id, alert_fingerprint, alertname, starts_at, action, mode, target, result, detail, "
            + "at, resolved_at, undo_result, undo_detail, undone_at";
    /** Results that reached, or in dry-run would have reached, the target. */
    private static final String ATTEMPTS = "('PENDING', 'APPLIED', 'DRY_RUN', 'ALREADY_IN_PLACE', 'FAILED')";
    /** Results by which gpumeter holds a change on the target. */
    private static final String HOLDING = "('PENDING', 'APPLIED', 'SHARED')";
    /** Results by which gpumeter holds, or in dry-run would hold, a change on the target. */
    private static final String HOLDING_OR_PLANNED = "('PENDING', 'APPLIED', 'SHARED', 'DRY_RUN')";

    private final Pool pool;

    public ActionRepository(Pool pool) {
        this.pool = pool;
    }

    /**
     * Records the action for the alert with the result {@code decide} gives, or nothing when the episode already has a
     * row for this action (a repeated delivery).
     */
    public Uni<Optional<StoredAction>> claim(ReceivedAlert alert, ActionKind kind, ActionMode mode, String target,
                                             int maxPerHour, int allowedCordons, Instant now, String detail,
                                             Function<ActionPolicy.Facts, ActionResult> decide) {
        return pool.withTransaction(conn -> lock(conn, kind)
                .chain(() -> conn.preparedQuery("SELECT 1 FROM alert.action WHERE alert_fingerprint = $1 AND starts_at = $2 "
                        + "AND action = $3").execute(Tuple.of(alert.fingerprint(), Sql.ts(alert.startsAt()), kind.label())))
                .chain(existing -> {
                    if (existing.size() > 0) {
                        return Uni.createFrom().item(Optional.<StoredAction>empty());
                    }
                    return facts(conn, kind, mode, target, maxPerHour, allowedCordons, now).chain(facts -> {
                        ActionResult result = decide.apply(facts);
                        String why = switch (result) {
                            case RATE_LIMITED -> facts.recentAttempts() + " " + kind.label() + " actions in the last hour, limit "
                                    + maxPerHour;
                            case REFUSED_BLAST_RADIUS -> facts.cordonedNodes() + " GPU nodes already cordoned by gpumeter, at most "
                                    + allowedCordons + " allowed";
                            case SHARED -> "gpumeter already holds this on " + target + " for another firing alert";
                            case SKIPPED -> "the alert carries no node label";
                            default -> detail;
                        };
                        return conn.preparedQuery("INSERT INTO alert.action (alert_fingerprint, alertname, starts_at, action, mode, "
                                        + "target, result, detail, at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING " + COLUMNS)
                                .execute(Tuple.from(Arrays.asList(alert.fingerprint(), alert.alertname(), Sql.ts(alert.startsAt()),
                                        kind.label(), mode.label(), target == null ? "" : target, result.name(), why, Sql.ts(now))))
                                .map(rows -> Optional.of(action(rows.iterator().next())));
                    });
                }));
    }

    public Uni<Void> finish(long id, ActionResult result, String detail) {
        return pool.preparedQuery("UPDATE alert.action SET result = $2, detail = $3 WHERE id = $1")
                .execute(Tuple.of(id, result.name(), detail)).replaceWithVoid();
    }

    /** Marks the episode's actions resolved and returns them. */
    public Uni<List<StoredAction>> resolve(String fingerprint, Instant startsAt, Instant now) {
        return pool.preparedQuery("UPDATE alert.action SET resolved_at = $3 WHERE alert_fingerprint = $1 AND starts_at = $2 "
                        + "AND resolved_at IS NULL RETURNING " + COLUMNS)
                .execute(Tuple.of(fingerprint, Sql.ts(startsAt), Sql.ts(now)))
                .map(ActionRepository::actions);
    }

    /**
     * Whether another unresolved alert still holds the same change on the target; serialised with claims of the
     * kind, so an undo and a new claim on one node never cross.
     */
    public Uni<Boolean> heldByOthers(StoredAction action) {
        return pool.withTransaction(conn -> lock(conn, ActionKind.parse(action.action()))
                .chain(() -> conn.preparedQuery("SELECT count(*) AS n FROM alert.action WHERE action = $1 AND target = $2 "
                                + "AND resolved_at IS NULL AND id <> $3 AND result IN " + HOLDING)
                        .execute(Tuple.of(action.action(), action.target(), action.id())))
                .map(rows -> rows.iterator().next().getLong("n") > 0));
    }

    public Uni<Void> undone(long id, String undoResult, String detail, Instant now) {
        return pool.preparedQuery("UPDATE alert.action SET undo_result = $2, undo_detail = $3, undone_at = $4 WHERE id = $1")
                .execute(Tuple.of(id, undoResult, detail, Sql.ts(now))).replaceWithVoid();
    }

    /** The window of the actions taken in [from, to), oldest first. */
    public Uni<Page<StoredAction>> between(Instant from, Instant to, Window window) {
        return PagedQuery.run(pool, COLUMNS, "FROM alert.action WHERE at >= $1 AND at < $2", "at, id",
                List.of(Sql.ts(from), Sql.ts(to)), window, ActionRepository::action);
    }

    /**
     * Dry-runs and enforced actions have budgets of their own: a dry-run counts the dry-runs of the hour (so that it
     * shows what enforce would do) and every cordon held or planned, but never uses up what an enforced action may
     * do; an enforced action counts enforced attempts and the cordons actually held.
     */
    private Uni<ActionPolicy.Facts> facts(SqlClient conn, ActionKind kind, ActionMode mode, String target, int maxPerHour,
                                          int allowedCordons, Instant now) {
        String cordonsCounted = mode == ActionMode.ENFORCE ? HOLDING : HOLDING_OR_PLANNED;
        return conn.preparedQuery("SELECT count(*) AS n FROM alert.action WHERE action = $1 AND mode = $3 AND at > $2 "
                        + "AND result IN " + ATTEMPTS)
                .execute(Tuple.of(kind.label(), Sql.ts(now.minus(Duration.ofHours(1))), mode.label()))
                .chain(recent -> conn.preparedQuery("SELECT count(*) AS n FROM alert.action WHERE action = $1 AND target = $2 "
                                + "AND resolved_at IS NULL AND result IN " + HOLDING)
                        .execute(Tuple.of(kind.label(), target == null ? "" : target))
                        .chain(holders -> conn.preparedQuery("SELECT count(DISTINCT target) AS n FROM alert.action "
                                        + "WHERE action = 'cordon' AND resolved_at IS NULL AND result IN " + cordonsCounted)
                                .execute()
                                .map(cordoned -> new ActionPolicy.Facts(target != null && !target.isBlank(), count(recent), maxPerHour,
                                        count(holders), count(cordoned), allowedCordons))));
    }

    private static Uni<Void> lock(SqlClient conn, ActionKind kind) {
        return conn.preparedQuery("SELECT pg_advisory_xact_lock(hashtext('gpumeter.alert.action'), hashtext($1))")
                .execute(Tuple.of(kind.label())).replaceWithVoid();
    }

    private static int count(RowSet<Row> rows) {
        return rows.iterator().next().getLong("n").intValue();
    }

    private static List<StoredAction> actions(RowSet<Row> rows) {
        List<StoredAction> out = new ArrayList<>();
        rows.forEach(r -> out.add(action(r)));
        return out;
    }

    private static StoredAction action(Row r) {
        return new StoredAction(r.getLong("id"), r.getString("alert_fingerprint"), r.getString("alertname"),
                Sql.instant(r, "starts_at"), r.getString("action"), r.getString("mode"), r.getString("target"),
                r.getString("result"), r.getString("detail"), Sql.instant(r, "at"), Sql.instant(r, "resolved_at"),
                r.getString("undo_result"), r.getString("undo_detail"), Sql.instant(r, "undone_at"));
    }
}
