package io.gpumeter.ledger.governance.repository;

import io.gpumeter.common.fact.Owner;
import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.common.fact.WatchEventType;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.gpumeter.ledger.repository.VersionsInHand;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Objects named "namespace/name" (pods named by a log signal, say) are found pair by pair through the table's name
 * index: compared as one concatenated string, the names could not use it and every version of the cluster was read.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class UidsByNameTest {

    private static final Instant AT = Instant.parse("2026-05-04T10:00:00Z");

    @Inject
    Pool pool;

    @Inject
    GovernanceFactRepository facts;

    @Inject
    GovernanceSourceRepository source;

    private static PodStatusFact pod(String uid, String namespace, String name, String rv) {
        return new PodStatusFact(uid, namespace, name, rv, WatchEventType.ADDED, AT, AT, null, null, "node-1",
                "default-scheduler", "Pending", null, null, new Owner("Job", "job-" + name), null, null,
                Map.of("nvidia.com/gpu", 1L), null, List.of());
    }

    @Test
    void podsAreFoundByNamespaceAndNameAndNothingElseMatches() {
        String cluster = "names-" + UUID.randomUUID().toString().substring(0, 8);
        String a = UUID.randomUUID().toString();
        String b = UUID.randomUUID().toString();
        String c = UUID.randomUUID().toString();
        List<PodStatusFact> pods = List.of(pod(a, "team-a", "train-0", "1"), pod(a, "team-a", "train-0", "2"),
                pod(b, "team-b", "train-0", "3"), pod(c, "team-a", "b/train-0", "4"));
        Set<String> found = pool.withTransaction(conn -> GovernanceSourceRepository.podsInHand(conn, cluster, pods)
                        .chain(hand -> facts.insertPodStatuses(conn, cluster, hand))
                        .chain(() -> source.uidsByName(conn, cluster, "gov_pod_status_fact",
                                List.of("team-a/train-0", "team-a/nobody", "team-a", "team-c/train-0"))))
                .await().atMost(Duration.ofSeconds(30));

        assertEquals(Set.of(a), found, "team-b's pod of the same name, another namespace's, and a key without a slash do not match");
    }

    @Test
    void theNamesAreLookedUpThroughTheNameIndex() {
        // A cluster of 20,000 pod versions, analysed, so that the plan is the one a real cluster gets.
        String cluster = "plan-" + UUID.randomUUID().toString().substring(0, 8);
        List<String> plan = pool.withConnection(conn -> conn.preparedQuery("""
                                INSERT INTO ledger.gov_pod_status_fact (cluster, uid, resource_version, event_type, namespace,
                                    name, owner_kind, owner_name, node_name, observed_at, payload)
                                SELECT $1, 'uid-' || i, '1', 'ADDED', 'ns-' || (i % 40), 'pod-' || i, 'Job', 'job-' || i,
                                    'node-' || (i % 100), now(), '{}'::json
                                FROM generate_series(1, 20000) i""").execute(Tuple.of(cluster))
                        .chain(() -> conn.query("ANALYZE ledger.gov_pod_status_fact").execute())
                        .chain(() -> conn.preparedQuery("EXPLAIN " + GovernanceSourceRepository.uidsByNameSql("gov_pod_status_fact"))
                                .execute(Tuple.of(cluster, new String[] {"ns-7", "ns-9"}, new String[] {"pod-7", "pod-9"}))))
                .map(rows -> {
                    List<String> lines = new ArrayList<>();
                    for (Row row : rows) {
                        lines.add(row.getString(0));
                    }
                    return lines;
                })
                .await().atMost(Duration.ofSeconds(30));

        assertTrue(plan.stream().anyMatch(l -> l.contains("Index Cond") && l.contains("namespace") && l.contains("name =")),
                String.join("\n", plan));
    }
}
