package io.gpumeter.ledger.governance.repository;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.common.fact.NodeFact;
import io.gpumeter.common.fact.WatchEventType;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.gpumeter.ledger.governance.domain.ChangeFold;
import io.gpumeter.ledger.governance.domain.HeartbeatLabels;
import io.gpumeter.ledger.governance.domain.NodeChanges;
import io.gpumeter.ledger.governance.repository.ChangeRepository.Scope;
import io.gpumeter.ledger.inventory.domain.NodePools;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The book of a 2,000-node cluster's month (docs/scale.md): 250 changes per node in March 2025 (500,000 rows, far
 * more than a month of real changes: a driver upgrade, a few rollouts and label edits), written node by node as
 * derivation writes them. A node's month is one range of the index (cluster, node, at), never a sequential scan,
 * and a bulk read of 1,000 nodes' months is one statement of 1,000 such ranges. The numbers measured are printed.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class ChangeBookAtScaleTest {

    static final int NODES = 2_000;
    static final int PER_NODE = 250;
    static final Duration WAIT = Duration.ofMinutes(5);
    static final OffsetDateTime FROM = OffsetDateTime.parse("2025-03-01T00:00:00Z");
    static final OffsetDateTime TO = OffsetDateTime.parse("2025-04-01T00:00:00Z");
    private static boolean loaded;

    @Inject
    Pool pool;

    @Inject
    ChangeRepository changes;

    @BeforeEach
    void load() {
        if (loaded) {
            return;
        }
        loaded = true;
        long start = System.nanoTime();
        pool.query("""
                        INSERT INTO ledger.gov_change (cluster, id, scope, node, at, kind, subject, before, after, source, count)
                        SELECT 'scale', md5(n || '/' || i), 'node/scale-node-' || n, 'scale-node-' || n,
                               timestamptz '2025-03-01 00:00:00+00' + i * interval '178 minutes' + n * interval '1 second',
                               (ARRAY['NODE_LABEL','GPU_ALLOCATABLE','COMPONENT_HEALTH','COMPONENT_VERSION'])[1 + mod(i, 4)],
                               'example.com/label-' || mod(i, 17), 'value-' || i, 'value-' || (i + 1), 'node labels', 1
                        FROM generate_series(0, %d) n, generate_series(0, %d) i
                        ORDER BY n, i""".formatted(NODES - 1, PER_NODE - 1)).execute()
                .chain(() -> pool.query("ANALYZE ledger.gov_change").execute())
                .await().atMost(WAIT);
        System.out.printf("change book at scale: %d rows written in %d ms%n", NODES * PER_NODE,
                (System.nanoTime() - start) / 1_000_000);
    }

    @Test
    void aNodesMonthIsOneIndexRange() throws Exception {
        // The statement GET /api/v1/changes?cluster=&node=&from=&to= runs (PagedQuery), without its page.
        String sql = "EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) SELECT id, cluster, scope, node, at, kind, subject, before,"
                + " after, source, count, count(*) OVER () AS total_count FROM ledger.gov_change WHERE at >= $1 AND at < $2"
                + " AND ($3::text IS NULL OR cluster = $3) AND ($4::text IS NULL OR node = $4) AND ($5::text[] IS NULL OR kind = ANY($5))"
                + " ORDER BY at, cluster, node NULLS FIRST, kind, subject NULLS FIRST, id LIMIT NULL OFFSET 0";
        JsonNode plan = new ObjectMapper().readTree(pool.preparedQuery(sql)
                .execute(Tuple.from(java.util.Arrays.asList(FROM, TO, "scale", "scale-node-1234", null)))
                .await().atMost(WAIT).iterator().next().getValue(0).toString()).get(0);
        String text = plan.toString();
        assertTrue(text.contains("gov_change_node_at"), text);
        assertFalse(text.contains("Seq Scan"), text);
        JsonNode top = plan.get("Plan");
        assertEquals(PER_NODE, top.get("Actual Rows").asInt());
        System.out.printf("change book at scale: a node's month, %d rows: %.3f ms, %d shared buffers (8 KiB) hit or read%n",
                top.get("Actual Rows").asInt(), plan.get("Execution Time").asDouble(),
                top.get("Shared Hit Blocks").asLong() + top.get("Shared Read Blocks").asLong());
        var sizes = pool.query("SELECT pg_table_size('ledger.gov_change') AS t, pg_indexes_size('ledger.gov_change') AS i")
                .execute().await().atMost(WAIT).iterator().next();
        System.out.printf("change book at scale: table %d MiB, indexes %d MiB, %d bytes a row with its indexes%n",
                sizes.getLong("t") >> 20, sizes.getLong("i") >> 20,
                (sizes.getLong("t") + sizes.getLong("i")) / ((long) NODES * PER_NODE));
    }

    @Test
    void aThousandNodesMonthsAreOneStatement() {
        List<Scope> scopes = new ArrayList<>();
        for (int n = 0; n < 1_000; n++) {
            scopes.add(new Scope("scale", "scale-node-" + n, FROM.toInstant(), TO.toInstant(), Set.of(), true, 1_000, false));
        }
        changes.bulk(scopes).await().atMost(WAIT);
        long start = System.nanoTime();
        var found = changes.bulk(scopes).await().atMost(WAIT);
        long ms = (System.nanoTime() - start) / 1_000_000;
        assertEquals(1_000, found.size());
        found.forEach(s -> assertEquals(PER_NODE, s.total()));
        System.out.printf("change book at scale: 1,000 nodes' months (%d changes) in one bulk read: %d ms%n",
                1_000 * PER_NODE, ms);
        // As correlation reads: the newest 10 of each node's month.
        List<Scope> newest = scopes.stream().map(s -> new Scope(s.cluster(), s.node(), s.from(), s.to(), Set.of(), true, 10,
                true)).toList();
        start = System.nanoTime();
        var tens = changes.bulk(newest).await().atMost(WAIT);
        System.out.printf("change book at scale: the newest 10 of 1,000 nodes' months in one bulk read: %d ms%n",
                (System.nanoTime() - start) / 1_000_000);
        assertEquals(10, tens.get(999).changes().size());
        assertEquals(PER_NODE, tens.get(999).total());
        assertTrue(tens.get(0).changes().get(0).at().isAfter(tens.get(0).changes().get(9).at()));
    }

    @Test
    void derivingANodesMonthOfLabelVersions() {
        // A month of a node's label versions at one every 10 minutes (4,464), 60 labels each, one label changing in
        // every tenth version and GFD's timestamp in every one: the cost of deriving a node again on a new version.
        List<NodeFact> versions = new ArrayList<>();
        Instant t = FROM.toInstant();
        for (int v = 0; v < 4_464; v++) {
            Map<String, String> labels = new LinkedHashMap<>();
            for (int l = 0; l < 60; l++) {
                labels.put("example.com/l" + l, "x");
            }
            labels.put("example.com/l7", "x" + v / 10);
            labels.put("nvidia.com/gfd.timestamp", Long.toString(t.getEpochSecond()));
            versions.add(new NodeFact("n", "u", Integer.toString(1_000 + v), WatchEventType.MODIFIED, t, labels, List.of()));
            t = t.plus(Duration.ofMinutes(10));
        }
        HeartbeatLabels heartbeats = new HeartbeatLabels(List.of("nvidia.com/gfd.timestamp"));
        NodePools pools = new NodePools(List.of("gpumeter.io/pool"));
        ChangeFold.fold("c", NodeChanges.derive("n", versions, List.of(), List.of(), List.of(), heartbeats, pools));
        long start = System.nanoTime();
        int rows = ChangeFold.fold("c", NodeChanges.derive("n", versions, List.of(), List.of(), List.of(), heartbeats, pools))
                .size();
        System.out.printf("change book at scale: deriving a node's month of %d label versions: %d changes in %d ms%n",
                versions.size(), rows, (System.nanoTime() - start) / 1_000_000);
        assertEquals(446, rows);
    }
}
