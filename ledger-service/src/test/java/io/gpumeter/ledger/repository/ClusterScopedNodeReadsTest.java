package io.gpumeter.ledger.repository;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.gpumeter.ledger.repository.FragmentationRepository.FirstSighting;
import io.gpumeter.ledger.repository.FragmentationRepository.NodeAt;
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
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The inventory reads of the Fleet layout and the fragmentation probe, asked for one cluster of a ledger holding twenty,
 * answer that cluster's nodes and read no other cluster's node versions: a read of one cluster must not slow down as
 * clusters join the ledger (docs/scale.md, "Twenty clusters in one ledger"). Each cluster has 100 nodes of three
 * versions: added at 00:00 plus the node's number in minutes, modified 5 minutes later (within the 15 minutes of a
 * first sighting) and again an hour later.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class ClusterScopedNodeReadsTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final int CLUSTERS = 20;
    private static final int NODES = 100;
    private static final int VERSIONS = 3;
    private static final String CLUSTER = "scoped-07";
    private static final Instant DAY = Instant.parse("2025-06-01T00:00:00Z");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static boolean loaded;

    @Inject
    Pool pool;

    @Inject
    FragmentationRepository inventory;

    @BeforeEach
    void load() {
        if (loaded) {
            return;
        }
        loaded = true;
        pool.query("""
                        INSERT INTO ledger.node_fact (cluster, name, resource_version, event_type, revision, observed_at, payload)
                        SELECT 'scoped-' || lpad(c::text, 2, '0'), 'n-' || n, k::text, CASE k WHEN 1 THEN 'ADDED' ELSE 'MODIFIED' END,
                               k, x.at,
                               jsonb_build_object('name', 'n-' || n, 'uid', 'uid-' || c || '-' || n, 'resourceVersion', k::text,
                                                  'type', CASE k WHEN 1 THEN 'ADDED' ELSE 'MODIFIED' END,
                                                  'observedAt', to_char(x.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
                                                  'labels', jsonb_build_object('nvidia.com/gpu.count', '8'), 'gpus', '[]'::jsonb)
                        FROM generate_series(0, %d) c, generate_series(0, %d) n, generate_series(1, %d) k,
                             LATERAL (SELECT timestamptz '2025-06-01 00:00:00+00' + n * interval '1 minute'
                                             + CASE k WHEN 1 THEN interval '0' WHEN 2 THEN interval '5 minutes'
                                                      ELSE interval '65 minutes' END AS at) x
                        ORDER BY c, n, x.at""".formatted(CLUSTERS - 1, NODES - 1, VERSIONS)).execute()
                .chain(() -> pool.query("ANALYZE ledger.node_fact").execute())
                .await().atMost(WAIT);
    }

    @Test
    void aClustersFirstSightingsAreItsOwnAndReadOnlyItsVersions() throws Exception {
        List<FirstSighting> firsts = inventory.firstSightings(CLUSTER, Duration.ofMinutes(15)).await().atMost(WAIT);
        assertEquals(NODES, firsts.size());
        for (FirstSighting f : firsts) {
            assertEquals(CLUSTER, f.cluster());
            int n = Integer.parseInt(f.node().name().substring(2));
            assertEquals(DAY.plus(Duration.ofMinutes(n)), f.observedAt(), f.node().name());
            assertEquals("2", f.node().resourceVersion(), "the newest version within 15 minutes of the first: " + f);
            assertEquals("uid-7-" + n, f.node().uid());
            assertNull(f.created(), "no status version tells a creation");
        }
        // Both reads of node_fact (the first sightings, then the versions within them) are the cluster's 300 rows.
        long read = rowsRead(FragmentationRepository.FIRST_SIGHTINGS, Tuple.of(CLUSTER, 900.0));
        assertTrue(read <= 2L * NODES * VERSIONS, "node_fact rows read for one cluster's first sightings: " + read
                + ", where the cluster has " + NODES * VERSIONS + " and the ledger " + CLUSTERS * NODES * VERSIONS);
    }

    @Test
    void aClustersNodesAtAnInstantAreItsOwnAndReadOnlyItsVersions() throws Exception {
        // At 00:30 node n-k was added at 00:k and modified at 00:(k+5): n-0..n-25 are at version 2, n-26..n-30 at 1,
        // the later ones not seen yet.
        Instant at = DAY.plus(Duration.ofMinutes(30));
        List<NodeAt> nodes = inventory.nodes(at, CLUSTER).await().atMost(WAIT);
        assertEquals(31, nodes.size());
        for (NodeAt n : nodes) {
            assertEquals(CLUSTER, n.cluster());
            int k = Integer.parseInt(n.node().name().substring(2));
            assertEquals(k <= 25 ? "2" : "1", n.node().resourceVersion(), n.node().name());
        }
        long read = rowsRead(FragmentationRepository.NODES_AT, Tuple.of(OffsetDateTime.parse("2025-06-01T00:30:00Z"), CLUSTER));
        assertTrue(read <= (long) NODES * VERSIONS, "node_fact rows read for one cluster's nodes at an instant: " + read);
    }

    /** The node_fact rows the statement's scans read, returned or filtered away, over all their loops. */
    private long rowsRead(String sql, Tuple parameters) throws Exception {
        Object value = pool.preparedQuery("EXPLAIN (ANALYZE, FORMAT JSON) " + sql).execute(parameters)
                .await().atMost(WAIT).iterator().next().getValue(0);
        JsonNode plan = JSON.readTree(String.valueOf(value)).get(0).get("Plan");
        long read = 0;
        for (JsonNode node : PlanNodes.nodes(plan)) {
            if ("node_fact".equals(node.path("Relation Name").asText())) {
                long loops = node.path("Actual Loops").asLong(1);
                read += (node.path("Actual Rows").asLong() + node.path("Rows Removed by Filter").asLong()) * loops;
            }
        }
        return read;
    }
}
