package io.gpumeter.ledger.governance.repository;

import io.gpumeter.common.fact.EventFact;
import io.gpumeter.common.fact.Owner;
import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.common.fact.WatchEventType;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.gpumeter.ledger.governance.domain.CarriedStatuses;
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
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Objects named "namespace/name" (pods named by a log signal, the objects of events without a uid) are found pair by
 * pair through the table's index: compared as one concatenated string, the names could not use it and every version
 * of the cluster was read.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class NameLookupsTest {

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
        Set<String> found = pool.withTransaction(conn -> source.podsInHand(conn, cluster, pods)
                        .chain(hand -> facts.insertPodStatuses(conn, cluster, hand, CarriedStatuses.none()))
                        .chain(() -> source.uidsByName(conn, cluster, "pod_status_version",
                                List.of("team-a/train-0", "team-a/nobody", "team-a", "team-c/train-0"))))
                .await().atMost(Duration.ofSeconds(30));

        assertEquals(Set.of(a), found, "team-b's pod of the same name, another namespace's, and a key without a slash do not match");
    }

    @Test
    void theNamesAreLookedUpThroughTheNameIndexOfEachHalf() {
        // A cluster of 20,000 governance views on their own and 20,000 carried by their pod versions, analysed, so that
        // the plan is the one a real cluster gets.
        String cluster = "plan-" + UUID.randomUUID().toString().substring(0, 8);
        List<String> plan = explain(cluster, """
                WITH own AS (
                    INSERT INTO ledger.gov_pod_status_fact (cluster, uid, resource_version, event_type, namespace,
                        name, owner_kind, owner_name, node_name, observed_at, payload)
                    SELECT $1, 'uid-' || i, '1', 'ADDED', 'ns-' || (i % 40), 'pod-' || i, 'Job', 'job-' || i,
                        'node-' || (i % 100), now(), '{}'::json
                    FROM generate_series(1, 20000) i)
                INSERT INTO ledger.pod_fact (cluster, uid, resource_version, event_type, namespace, node_name,
                    observed_at, payload, name, owner_kind, owner_name, status)
                SELECT $1, 'carried-' || i, '1', 'ADDED', 'ns-' || (i % 40), 'node-' || (i % 100), now(), '{}'::json,
                    'pod-c' || i, 'Job', 'job-' || i, '{}'::json
                FROM generate_series(1, 20000) i""", "ledger.gov_pod_status_fact, ledger.pod_fact",
                GovernanceSourceRepository.uidsByNameSql(PodStatusVersions.RELATION),
                Tuple.of(cluster, new String[] {"ns-7", "ns-9"}, new String[] {"pod-7", "pod-c9"}));

        assertFalse(plan.stream().anyMatch(l -> l.contains("Seq Scan")), String.join("\n", plan));
        assertEquals(2, plan.stream().filter(l -> l.contains("Index Cond") && l.contains("namespace") && l.contains("name =")).count(),
                String.join("\n", plan));
    }

    private static EventFact event(String uid, String rv, String namespace, String name, String involvedUid, int count) {
        return new EventFact(uid, namespace, name + ".e" + uid.substring(0, 4), rv, AT, "Pod", namespace, name, involvedUid,
                "FailedScheduling", "Warning", "0/4 nodes are available", "default-scheduler", null, AT, AT, count);
    }

    @Test
    void eventsAreFoundByTheirObjectsUidOrWithoutOneByItsNamespaceAndName() {
        String cluster = "events-" + UUID.randomUUID().toString().substring(0, 8);
        String podUid = UUID.randomUUID().toString();
        String byUid = UUID.randomUUID().toString();
        String byName = UUID.randomUUID().toString();
        String otherNamespace = UUID.randomUUID().toString();
        String otherPodsUid = UUID.randomUUID().toString();
        List<EventFact> events = List.of(event(byUid, "1", "team-a", "train-0", podUid, 1),
                event(byUid, "2", "team-a", "train-0", podUid, 3), // the newest count is the one read
                event(byName, "3", "team-a", "train-0", null, 1),
                event(otherNamespace, "4", "team-b", "train-0", null, 1),
                event(otherPodsUid, "5", "team-a", "train-0", UUID.randomUUID().toString(), 1));
        List<EventFact> found = pool.withTransaction(conn -> facts.insertEvents(conn, cluster, events)
                        .chain(() -> source.eventsAbout(conn, cluster, "Pod", List.of(podUid), List.of("team-a/train-0"))))
                .await().atMost(Duration.ofSeconds(30));

        assertEquals(Map.of(byUid, 3, byName, 1), found.stream().collect(Collectors.toMap(EventFact::uid, EventFact::count)),
                "an event with another object's uid does not match by name, nor one in another namespace");
    }

    @Test
    void eventsAreLookedUpThroughTheirIndexes() {
        String cluster = "plan-" + UUID.randomUUID().toString().substring(0, 8);
        List<String> plan = explain(cluster, """
                INSERT INTO ledger.gov_event_fact (cluster, uid, resource_version, involved_kind, involved_namespace,
                    involved_name, involved_uid, reason, first_at, observed_at, payload)
                SELECT $1, 'e-' || i, '1', 'Pod', 'ns-' || (i % 40), 'pod-' || (i % 5000),
                    CASE WHEN i % 2 = 0 THEN 'uid-' || (i % 5000) END, 'Scheduled', now(), now(), '{"count": 1}'::jsonb
                FROM generate_series(1, 20000) i""", "ledger.gov_event_fact", GovernanceSourceRepository.eventsAboutSql(),
                Tuple.of(cluster, "Pod", new String[] {"uid-7"}, new String[] {"ns-7"}, new String[] {"pod-7"}));

        assertFalse(plan.stream().anyMatch(l -> l.contains("Seq Scan")), String.join("\n", plan));
        assertTrue(plan.stream().anyMatch(l -> l.contains("Index Cond") && l.contains("involved_uid")), String.join("\n", plan));
        assertTrue(plan.stream().anyMatch(l -> l.contains("Index Cond") && l.contains("involved_namespace")
                && l.contains("involved_name =")), String.join("\n", plan));
    }

    /** Fills tables with a cluster's rows, analyses them, and explains a statement over them. */
    private List<String> explain(String cluster, String fill, String tables, String statement, Tuple parameters) {
        return pool.withConnection(conn -> conn.preparedQuery(fill).execute(Tuple.of(cluster))
                        .chain(() -> conn.query("ANALYZE " + tables).execute())
                        .chain(() -> conn.preparedQuery("EXPLAIN " + statement).execute(parameters)))
                .map(rows -> {
                    List<String> lines = new ArrayList<>();
                    for (Row row : rows) {
                        lines.add(row.getString(0));
                    }
                    return lines;
                })
                .await().atMost(Duration.ofSeconds(30));
    }
}
