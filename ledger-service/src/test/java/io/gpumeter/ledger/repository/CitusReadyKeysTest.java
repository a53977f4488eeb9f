package io.gpumeter.ledger.repository;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The ledger schema stays ready to be distributed by {@code cluster} (docs/adr/0010-citus-ready-keys.md): read from
 * the migrated database's catalog, every primary key and unique index of every ledger table includes the column
 * {@code cluster}, but for the tables named here as not distributed; and every {@code ON CONFLICT} target the
 * repositories write is one of those keys.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class CitusReadyKeysTest {

    /**
     * Ledger tables that are not distributed by cluster. Flyway's history stays on the coordinator, and so do the day
     * books' stored answers and the prune's samples (V40): an answer is a report's over every cluster, a cache the
     * coordinator keeps. The ledger has no reference table today: rate cards (billing.rate_card) and policies
     * (billing.budget, slo.slo_definition) live in their own services' schemas and become reference tables there.
     */
    static final Set<String> NOT_DISTRIBUTED = Set.of("flyway_schema_history", "day_answer", "book_horizon");

    /** Every unique or primary index of a ledger table that lacks the distribution column: table, index, definition. */
    static final String KEYS_WITHOUT_CLUSTER = """
            SELECT t.relname AS tbl, i.relname AS idx, pg_get_indexdef(x.indexrelid) AS def
            FROM pg_index x
            JOIN pg_class t ON t.oid = x.indrelid
            JOIN pg_namespace n ON n.oid = t.relnamespace
            JOIN pg_class i ON i.oid = x.indexrelid
            WHERE n.nspname = 'ledger' AND (x.indisunique OR x.indisprimary) AND t.relkind IN ('r', 'p')
              AND NOT (t.relname = ANY ($1))
              AND NOT EXISTS (SELECT 1 FROM pg_attribute a
                              WHERE a.attrelid = t.oid AND a.attname = 'cluster' AND a.attnum = ANY (x.indkey))
            ORDER BY 1, 2""";

    /** The column set of every primary key and unique index of the ledger's tables, sorted and comma-joined. */
    static final String UNIQUE_KEYS = """
            SELECT DISTINCT t.relname AS tbl,
                   (SELECT string_agg(a.attname, ',' ORDER BY a.attname) FROM pg_attribute a
                    WHERE a.attrelid = t.oid AND a.attnum = ANY (x.indkey)) AS cols
            FROM pg_index x
            JOIN pg_class t ON t.oid = x.indrelid
            JOIN pg_namespace n ON n.oid = t.relnamespace
            WHERE n.nspname = 'ledger' AND (x.indisunique OR x.indisprimary) AND t.relkind IN ('r', 'p')
              AND NOT (t.relname = ANY ($1))""";

    @Inject
    Pool pool;

    static Uni<List<String>> offenders(SqlConnection conn) {
        return conn.preparedQuery(KEYS_WITHOUT_CLUSTER).execute(Tuple.of(NOT_DISTRIBUTED.toArray(String[]::new)))
                .map(rows -> {
                    List<String> out = new ArrayList<>();
                    rows.forEach(r -> out.add(r.getString("tbl") + ": " + r.getString("def")));
                    return out;
                });
    }

    @Test
    void everyPrimaryAndUniqueKeyOfTheLedgerIncludesCluster() {
        List<String> found = pool.withConnection(CitusReadyKeysTest::offenders)
                .await().indefinitely();
        assertEquals(List.of(), found, "keys without the distribution column 'cluster'");
        // Not vacuous: the catalog holds the ledger's keyed tables (facts, books, usage rollups).
        Set<String> keyed = new TreeSet<>();
        pool.preparedQuery(UNIQUE_KEYS).execute(Tuple.of(NOT_DISTRIBUTED.toArray(String[]::new))).await().indefinitely()
                .forEach(r -> keyed.add(r.getString("tbl")));
        assertTrue(keyed.containsAll(Set.of("pod_fact", "allocation_segment", "pod_request", "gov_incident",
                "usage_minute", "usage_hour", "gpu_binding", "gpu_device")), keyed.toString());
        assertTrue(keyed.size() >= 24, keyed.size() + " keyed tables: " + keyed);
    }

    @Test
    void aKeyWithoutClusterIsFound() {
        // The check fails on a table keyed without the distribution column; the table never outlives the transaction.
        List<String> found = pool.withConnection(conn -> conn.query("BEGIN").execute()
                .chain(() -> conn.query("CREATE TABLE ledger.keyed_without_cluster (cluster text, id text PRIMARY KEY,"
                        + " name text, UNIQUE (cluster, name))").execute())
                .chain(() -> offenders(conn))
                .call(() -> conn.query("ROLLBACK").execute())).await().indefinitely();
        assertEquals(1, found.size(), found.toString());
        assertTrue(found.get(0).startsWith("keyed_without_cluster: CREATE UNIQUE INDEX keyed_without_cluster_pkey"), found.toString());
    }

    @Test
    void everyOnConflictTargetIsAKeyThatIncludesCluster() throws IOException {
        Set<String> keys = new TreeSet<>();
        for (Row r : pool.preparedQuery(UNIQUE_KEYS).execute(Tuple.of(NOT_DISTRIBUTED.toArray(String[]::new)))
                .await().indefinitely()) {
            keys.add(r.getString("cols"));
        }
        Set<String> coordinatorKeys = new TreeSet<>();
        for (Row r : pool.preparedQuery(UNIQUE_KEYS).execute(Tuple.of((Object) new String[0])).await().indefinitely()) {
            if (NOT_DISTRIBUTED.contains(r.getString("tbl"))) {
                coordinatorKeys.add(r.getString("cols"));
            }
        }
        Pattern target = Pattern.compile("ON CONFLICT \\(([^)]*)\\)");
        List<String> targets = new ArrayList<>();
        try (Stream<Path> files = Files.walk(Path.of("src/main"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java") || f.toString().endsWith(".sql")).toList()) {
                Matcher m = target.matcher(Files.readString(file));
                while (m.find()) {
                    String cols = String.join(",", new TreeSet<>(Arrays.stream(m.group(1).split(","))
                            .map(String::trim).toList()));
                    targets.add(file.getFileName() + ": " + cols);
                    assertTrue(cols.contains("cluster") && keys.contains(cols) || coordinatorKeys.contains(cols),
                            file.getFileName() + " writes ON CONFLICT (" + m.group(1) + "), not a key with cluster");
                }
            }
        }
        assertTrue(targets.size() >= 4, targets.toString());
    }
}
