package io.gpumeter.ledger.repository;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * After a bulk load the tables it changed are analysed, and the statement a replay repeats most is planned again
 * through the key it should use. A twin of the allocation segments, created empty as a first install's are, stands in
 * for them, so that the other tests' rows and statistics do not matter.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class BulkLoadStatisticsTest {

    private static final String TWIN = "ledger.bulk_load_twin";
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Inject
    Pool pool;

    @Inject
    BulkLoadStatistics statistics;

    @BeforeEach
    void anEmptyTwin() {
        run("DROP TABLE IF EXISTS " + TWIN);
        // Without autovacuum: its own analysis of a table grown this much would reset the counts the tests wait for.
        run("CREATE TABLE " + TWIN + " (LIKE ledger.allocation_segment INCLUDING ALL) WITH (autovacuum_enabled = false)");
    }

    private void load() {
        load(100_000);
    }

    private void load(int rows) {
        run("""
                INSERT INTO %s (cluster, pod_uid, unit_index, seg_start, since, namespace, pod, node, unit_kind, fraction,
                    source, tenant, team, project)
                SELECT 'replay', md5(g::text), 0, timestamptz '2026-05-01' + g * interval '1 minute',
                    timestamptz '2026-05-01', 'team-a', 'pod-' || g, 'node-' || (g %% 250), 'GPU', 1, 'device-plugin',
                    'a', 'a', 'a'
                FROM generate_series((SELECT count(*) + 1 FROM %s), (SELECT count(*) FROM %s) + %d) g"""
                .formatted(TWIN, TWIN, TWIN, rows));
    }

    @AfterEach
    void dropTheTwin() {
        run("DROP TABLE IF EXISTS " + TWIN);
    }

    @Test
    void aTableLoadedSinceItsLastAnalysisIsAnalysedAndASlicesDeleteByPodThenGoesThroughTheKey() {
        load();
        awaitStatistics();
        String loaded = deletePlan();

        List<String> analysed = statistics.analyseStale().await().atMost(WAIT);

        assertFalse(loaded.contains("bulk_load_twin_pkey"),
                "never analysed, a slice's delete by pod reads the whole cluster: " + loaded);
        assertTrue(analysed.contains(TWIN), analysed.toString());
        String after = deletePlan();
        assertTrue(after.contains("bulk_load_twin_pkey"), after);
        assertFalse(after.contains("node"), after);
        assertFalse(statistics.analyseStale().await().atMost(WAIT).contains(TWIN), "analysed once, fresh since");
    }

    @Test
    void aTableIsAnalysedAgainOnceItHasGrownFourfoldNotBefore() {
        load(20_000);
        awaitStatistics(20_000);
        assertTrue(statistics.analyseStale().await().atMost(WAIT).contains(TWIN), "a first load is analysed");

        load(20_000);
        awaitStatistics(20_000);
        assertFalse(stale().contains(TWIN), "doubled: not yet");

        load(39_999);
        awaitStatistics(59_999);
        assertFalse(stale().contains(TWIN), "a row short of fourfold");

        load(1);
        awaitStatistics(60_000);
        assertTrue(stale().contains(TWIN), "fourfold: 80,000 rows since 20,000");
    }

    /** The tables an analysis would take now, asked without analysing them. */
    private List<String> stale() {
        return query(BulkLoadStatistics.staleTablesSql()).stream().map(r -> r.getString("table_name")).toList();
    }

    @Test
    void onlyATransactionOfABulkLoadStartsAnAnalysisInTheBackground() {
        load();
        awaitStatistics();

        assertFalse(statistics.afterCommit(BulkLoadStatistics.ROWS - 1));
        // one analysis at a time: another test's may still run
        await("an analysis to start").atMost(WAIT).until(() -> statistics.afterCommit(BulkLoadStatistics.ROWS));
        await("the twin to be analysed").atMost(WAIT).until(() -> !query("SELECT last_analyze IS NULL AS n"
                + " FROM pg_stat_user_tables WHERE relid = '" + TWIN + "'::regclass").get(0).getBoolean("n"));
    }

    /** How the delete of a slice's segments (1,000 pods, as the ledger derives them) is planned: its scans. */
    private String deletePlan() {
        StringBuilder pods = new StringBuilder("{");
        for (int i = 0; i < 1000; i++) {
            pods.append(i == 0 ? "" : ",").append(java.util.UUID.nameUUIDFromBytes(new byte[] {(byte) i, (byte) (i >> 8)}));
        }
        List<String> lines = new ArrayList<>();
        query("EXPLAIN DELETE FROM " + TWIN + " WHERE cluster = 'replay' AND pod_uid = ANY('" + pods + "}')")
                .forEach(r -> lines.add(r.getString(0)));
        return lines.stream().filter(line -> line.contains("Scan")).map(String::strip).toList().toString();
    }

    /** The server counts a transaction's rows once its backend reports them, a moment after the commit. */
    private void awaitStatistics() {
        awaitStatistics(100_000);
    }

    private void awaitStatistics(long changed) {
        await("the load to be counted").atMost(WAIT).until(() -> query("SELECT n_mod_since_analyze"
                + " FROM pg_stat_user_tables WHERE relid = '" + TWIN + "'::regclass").get(0).getLong(0) >= changed);
    }

    private void run(String sql) {
        pool.withConnection(c -> c.query(sql).execute()).await().atMost(WAIT);
    }

    private List<Row> query(String sql) {
        List<Row> rows = new ArrayList<>();
        pool.withConnection(c -> c.query(sql).execute()).await().atMost(WAIT).forEach(rows::add);
        return rows;
    }
}
