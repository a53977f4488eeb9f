package io.gpumeter.alert.repository;

import io.gpumeter.alert.domain.Episode;
import io.gpumeter.alert.domain.Finding;
import io.gpumeter.alert.domain.RuleResult;
import io.gpumeter.alert.domain.rule.Rule;
import io.gpumeter.common.problem.Page;
import io.gpumeter.common.problem.Window;
import io.gpumeter.common.sql.PagedQuery;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The episodes of alert-service's own alerts and each rule's newest status. */
@ApplicationScoped
public class EpisodeRepository {

    private static final String COLUMNS = "fingerprint, starts_at, alertname, severity, labels, annotations, state, ends_at, "
            + "last_evaluated_at";

    private final Pool pool;

    public EpisodeRepository(Pool pool) {
        this.pool = pool;
    }

    public Uni<List<Episode>> firing(SqlClient conn) {
        return conn.query("SELECT fingerprint, alertname, starts_at FROM alert.episode WHERE state = 'firing'").execute()
                .map(rows -> {
                    List<Episode> out = new ArrayList<>();
                    rows.forEach(r -> out.add(new Episode(r.getString("fingerprint"), r.getString("alertname"),
                            Sql.instant(r, "starts_at"))));
                    return out;
                });
    }

    public Uni<Void> open(SqlClient conn, Finding f, Map<String, String> annotations, Instant now) {
        return conn.preparedQuery("""
                        INSERT INTO alert.episode (fingerprint, starts_at, alertname, severity, labels, annotations, state,
                                                   last_evaluated_at)
                        VALUES ($1, $2, $3, $4, $5, $6, 'firing', $2)
                        ON CONFLICT DO NOTHING""")
                .execute(Tuple.from(List.of(f.fingerprint(), Sql.ts(now), f.alertname(), f.severity().label(),
                        Sql.json(f.labels()), Sql.json(annotations))))
                .replaceWithVoid();
    }

    public Uni<Void> refresh(SqlClient conn, Finding f, Map<String, String> annotations, Instant now) {
        return conn.preparedQuery("""
                        UPDATE alert.episode SET annotations = $2, last_evaluated_at = $3
                        WHERE fingerprint = $1 AND state = 'firing'""")
                .execute(Tuple.of(f.fingerprint(), Sql.json(annotations), Sql.ts(now)))
                .replaceWithVoid();
    }

    public Uni<Void> resolve(SqlClient conn, Episode e, Instant now) {
        return conn.preparedQuery("""
                        UPDATE alert.episode SET state = 'resolved', ends_at = $3, last_evaluated_at = $3
                        WHERE fingerprint = $1 AND starts_at = $2 AND state = 'firing'""")
                .execute(Tuple.of(e.fingerprint(), Sql.ts(e.startsAt()), Sql.ts(now)))
                .replaceWithVoid();
    }

    /** Every firing episode, and those that resolved at {@code resolvedAt}, as stored. */
    public Uni<List<StoredEpisode>> firingOrResolvedAt(SqlClient conn, Instant resolvedAt) {
        return conn.preparedQuery("SELECT " + COLUMNS + " FROM alert.episode WHERE state = 'firing' OR ends_at = $1")
                .execute(Tuple.of(Sql.ts(resolvedAt)))
                .map(rows -> {
                    List<StoredEpisode> out = new ArrayList<>();
                    rows.forEach(r -> out.add(episode(r)));
                    return out;
                });
    }

    /** The window of the episodes that fire now or ended at or after {@code since}, newest first. */
    public Uni<Page<StoredEpisode>> recent(Instant since, boolean firingOnly, Window window) {
        return firingOnly
                ? PagedQuery.run(pool, COLUMNS, "FROM alert.episode WHERE state = 'firing'", "starts_at DESC, fingerprint",
                        List.of(), window, EpisodeRepository::episode)
                : PagedQuery.run(pool, COLUMNS, "FROM alert.episode WHERE state = 'firing' OR ends_at >= $1",
                        "starts_at DESC, fingerprint", List.of(Sql.ts(since)), window, EpisodeRepository::episode);
    }

    /** The window of the episodes of one alert, newest first. */
    public Uni<Page<StoredEpisode>> byFingerprint(String fingerprint, Window window) {
        return PagedQuery.run(pool, COLUMNS, "FROM alert.episode WHERE fingerprint = $1", "starts_at DESC",
                List.of(fingerprint), window, EpisodeRepository::episode);
    }

    public Uni<Void> saveStatus(SqlClient conn, Rule rule, RuleResult result, Instant now) {
        return conn.preparedQuery("""
                        INSERT INTO alert.rule_status (alertname, severity, condition, status, note, firing, evaluated_at)
                        VALUES ($1, $2, $3, $4, $5, $6, $7)
                        ON CONFLICT (alertname) DO UPDATE SET severity = EXCLUDED.severity, condition = EXCLUDED.condition,
                            status = EXCLUDED.status, note = EXCLUDED.note, firing = EXCLUDED.firing,
                            evaluated_at = EXCLUDED.evaluated_at""")
                .execute(Tuple.from(Arrays.asList(rule.alertname(), rule.severity().label(), rule.condition(),
                        result.status().name(), result.note(), result.findings().size(), Sql.ts(now))))
                .replaceWithVoid();
    }

    /** When the rules were last evaluated, by any replica; empty before the first evaluation. */
    public Uni<Optional<Instant>> lastEvaluation() {
        return pool.query("SELECT max(evaluated_at) AS last FROM alert.rule_status").execute()
                .map(rows -> Optional.ofNullable(Sql.instant(rows.iterator().next(), "last")));
    }

    /** Each rule's state after the newest evaluation. */
    public Uni<List<StoredRuleStatus>> statuses() {
        return pool.query("SELECT alertname, severity, condition, status, note, firing, evaluated_at FROM alert.rule_status "
                        + "ORDER BY alertname")
                .execute().map(rows -> {
                    List<StoredRuleStatus> out = new ArrayList<>();
                    rows.forEach(r -> out.add(new StoredRuleStatus(r.getString("alertname"), r.getString("severity"),
                            r.getString("condition"), r.getString("status"), r.getString("note"), r.getInteger("firing"),
                            Sql.instant(r, "evaluated_at"))));
                    return out;
                });
    }

    private static StoredEpisode episode(Row r) {
        return new StoredEpisode(r.getString("fingerprint"), Sql.instant(r, "starts_at"), r.getString("alertname"),
                r.getString("severity"), Sql.strings(r, "labels"), Sql.strings(r, "annotations"), r.getString("state"),
                Sql.instant(r, "ends_at"), Sql.instant(r, "last_evaluated_at"));
    }
}
