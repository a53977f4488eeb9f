package io.gpumeter.ledger.repository;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.gpumeter.ledger.governance.repository.PodSiblings;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a bulk replay's bundle reads under the cluster lock is found through the keys, whatever the history: a cluster
 * of 20,000 pods in 80,000 versions carrying their views and 20,000 views on their own, each pod of a Job with one
 * other, and a bundle of 10,000 pods of which a tenth
 * were stored before. Read as one filter or one join, the planner expected a good part of the table to match and
 * scanned all of it for every bundle, a cost that grows with the cluster's history; looked up key by key, a bundle
 * reads what it names.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class BundleReadPlanTest {

    private static final String CLUSTER = "plan-bundle";
    private static final int STORED_PODS = 20_000;
    private static boolean loaded;

    @Inject
    Pool pool;

    @BeforeEach
    void load() {
        if (loaded) {
            return;
        }
        loaded = true;
        pool.query("""
                        INSERT INTO ledger.pod_fact (cluster, uid, resource_version, event_type, namespace, node_name, observed_at,
                                                     payload, name, owner_kind, owner_name, status)
                        SELECT 'plan-bundle', 'pod-' || p, (p * 4 + v)::text, CASE v WHEN 0 THEN 'ADDED' ELSE 'MODIFIED' END,
                               'ns-' || (p / 2 % 40), 'node-' || (p % 500), timestamptz '2026-05-01 00:00:00+00' + p * interval '1 minute',
                               '{}'::json, 'pod-' || p, 'Job', 'job-' || (p / 2), '{"phase":"Running"}'::json
                        FROM generate_series(0, 19999) p, generate_series(0, 3) v""").execute()
                .chain(() -> pool.query("""
                        INSERT INTO ledger.gov_pod_status_fact (cluster, uid, resource_version, event_type, namespace, name,
                                                                owner_kind, owner_name, observed_at, payload, node_name)
                        SELECT 'plan-bundle', 'pod-' || p, (p * 4 + 4)::text, 'MODIFIED', 'ns-' || (p / 2 % 40), 'pod-' || p,
                               'Job', 'job-' || (p / 2), timestamptz '2026-05-01 00:00:00+00' + p * interval '1 minute',
                               '{}'::json, 'node-' || (p % 500)
                        FROM generate_series(0, 19999) p""").execute())
                .chain(() -> pool.query("ANALYZE ledger.pod_fact, ledger.gov_pod_status_fact").execute())
                .await().atMost(Duration.ofSeconds(60));
    }

    /** A bundle's 10,000 pods: the last tenth of those stored before and 9,000 new ones. */
    private static String[] bundleUids() {
        return IntStream.range(STORED_PODS - 1_000, STORED_PODS + 9_000).mapToObj(p -> "pod-" + p).toArray(String[]::new);
    }

    @Test
    void theKeysStoredBeforeAreLookedUpByUid() throws Exception {
        JsonNode plan = PlanNodes.plan(pool, PodKeysBefore.sql(), Tuple.of(CLUSTER, bundleUids()));

        assertReadByKey(plan, "uid");
        PodKeysBefore keys = pool.withTransaction(conn -> PodKeysBefore.read(conn, CLUSTER, Set.of(bundleUids())))
                .await().atMost(Duration.ofSeconds(30));
        String stored = "pod-" + (STORED_PODS - 1);
        assertEquals(4, keys.podVersions().of(stored).orElseThrow().size(), "a pod stored before, with its versions");
        assertEquals(5, keys.podStatuses().of(stored).orElseThrow().size(), "its versions' views, and one on its own");
        assertTrue(keys.podVersions().of("pod-" + STORED_PODS).isEmpty(), "a new pod");
    }

    @Test
    void theSiblingsOfABundlesOwnersAreLookedUpByOwner() throws Exception {
        String[] uids = bundleUids();
        List<Integer> jobs = IntStream.range(0, uids.length / 2).mapToObj(i -> STORED_PODS / 2 - 500 + i).toList();
        Tuple parameters = Tuple.of(CLUSTER, jobs.stream().map(j -> "ns-" + j % 40).toArray(String[]::new),
                jobs.stream().map(j -> "Job").toArray(String[]::new), jobs.stream().map(j -> "job-" + j).toArray(String[]::new),
                new String[]{"pod-5", "pod-7"});

        JsonNode plan = PlanNodes.plan(pool, PodSiblings.withSiblingsSql(), parameters);

        assertReadByKey(plan, "owner_name", "uid");
    }

    /**
     * No node reads a pod version or view table whole, and each one that reads it has an index condition naming one
     * of {@code columns}.
     */
    private static void assertReadByKey(JsonNode plan, String... columns) {
        List<JsonNode> reads = PlanNodes.nodes(plan).stream()
                .filter(n -> Set.of("pod_fact", "gov_pod_status_fact").contains(n.path("Relation Name").asText()))
                .toList();
        assertFalse(reads.isEmpty(), plan.toPrettyString());
        for (JsonNode read : reads) {
            assertFalse(read.path("Node Type").asText().startsWith("Seq Scan")
                            || read.path("Node Type").asText().equals("Parallel Seq Scan"),
                    read.path("Relation Name").asText() + " is read whole: " + plan.toPrettyString());
            String condition = read.path("Index Cond").asText() + read.path("Recheck Cond").asText();
            assertTrue(Arrays.stream(columns).anyMatch(condition::contains), read.path("Relation Name").asText()
                    + " is not read by " + String.join(" or ", columns) + ": " + plan.toPrettyString());
        }
    }
}
