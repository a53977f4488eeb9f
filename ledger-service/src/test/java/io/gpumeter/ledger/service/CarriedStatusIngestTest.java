package io.gpumeter.ledger.service;

import io.gpumeter.common.fact.BundleResult;
import io.gpumeter.common.fact.ContainerState;
import io.gpumeter.common.fact.ContainerStatusFact;
import io.gpumeter.common.fact.FactBatch;
import io.gpumeter.common.fact.FactBundle;
import io.gpumeter.common.fact.GovernanceBatch;
import io.gpumeter.common.fact.Owner;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.common.fact.WatchEventType;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.gpumeter.ledger.governance.repository.GovernanceSourceRepository;
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
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A bundle's pod versions carry the governance views they agree with, one row per pod event (ADR 0016), and nothing
 * else changes: the books are those of the views stored on their own, a bundle sent twice stores once, a view its pod
 * version does not make is kept as sent, and a key is stored in one place only.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class CarriedStatusIngestTest {

    private static final Instant T0 = Instant.parse("2026-05-01T00:00:00Z");

    @Inject
    BundleIngestService bundles;

    @Inject
    GovernanceSourceRepository source;

    @Inject
    Pool pool;

    private static Instant at(int minutes) {
        return T0.plusSeconds(60L * minutes);
    }

    private static PodFact pod(String uid, String rv, WatchEventType type, int minute, String node, String phase,
                               boolean done) {
        return new PodFact(uid, "ml", "train-" + uid.substring(0, 6), rv, type, at(minute).plusNanos(123_456_789),
                at(0), node == null ? null : at(minute), node, phase, "default-scheduler", done, done ? at(minute) : null,
                null, new Owner("Job", "train"), Map.of("kueue.x-k8s.io/queue-name", "team-a"),
                Map.of("nvidia.com/gpu", 1L), List.of());
    }

    /** The collector's governance view of a pod version: its fields and the status only a view has. */
    private static PodStatusFact viewOf(PodFact pod, ContainerState state) {
        return new PodStatusFact(pod.uid(), pod.namespace(), pod.name(), pod.resourceVersion(), pod.type(),
                pod.observedAt(), pod.createdAt(), pod.scheduledAt(), pod.deletionTimestamp(), pod.nodeName(),
                pod.schedulerName(), pod.phase(), null, null, pod.owner(), null, "team-a", pod.gpuResources(),
                pod.scheduledAt(), state == null ? List.of() : List.of(new ContainerStatusFact("main", false, 0, state, null)));
    }

    /** A pod that runs, is OOM-killed and is replaced by a sibling that runs: queue waits, states and a failure. */
    private record Month(List<PodFact> pods, List<PodStatusFact> views) {

        static Month of() {
            String failed = UUID.randomUUID().toString();
            String replacement = UUID.randomUUID().toString();
            List<PodFact> pods = List.of(
                    pod(failed, "1", WatchEventType.ADDED, 0, null, "Pending", false),
                    pod(failed, "2", WatchEventType.MODIFIED, 3, "gpu-1", "Running", false),
                    pod(failed, "3", WatchEventType.MODIFIED, 30, "gpu-1", "Failed", true),
                    pod(replacement, "4", WatchEventType.ADDED, 31, null, "Pending", false),
                    pod(replacement, "5", WatchEventType.MODIFIED, 35, "gpu-2", "Running", false));
            List<ContainerState> states = List.of(
                    new ContainerState(ContainerState.WAITING, "ContainerCreating", null, null, null, null),
                    new ContainerState(ContainerState.RUNNING, null, null, null, at(3), null),
                    new ContainerState(ContainerState.TERMINATED, "OOMKilled", null, 137, at(3), at(30)),
                    new ContainerState(ContainerState.WAITING, "ContainerCreating", null, null, null, null),
                    new ContainerState(ContainerState.RUNNING, null, null, null, at(35), null));
            List<PodStatusFact> views = new ArrayList<>();
            for (int i = 0; i < pods.size(); i++) {
                views.add(viewOf(pods.get(i), states.get(i)));
            }
            return new Month(pods, views);
        }
    }

    private static String newCluster() {
        return "carried-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private BundleResult send(String cluster, List<PodFact> pods, List<PodStatusFact> views) {
        FactBatch facts = pods.isEmpty() ? null : new FactBatch(cluster, List.of(), List.of(), pods, List.of(), List.of(), List.of());
        GovernanceBatch governed = views.isEmpty() ? null : GovernanceBatch.of(cluster, views);
        return bundles.ingest(new FactBundle(facts, governed)).await().atMost(Duration.ofSeconds(30));
    }

    private long count(String sql, String cluster) {
        return pool.preparedQuery(sql).execute(Tuple.of(cluster)).await().atMost(Duration.ofSeconds(30))
                .iterator().next().getLong(0);
    }

    /** A book's rows of one cluster, each as JSON without its cluster (nor an incident's id, a hash of it), sorted. */
    private List<String> book(String table, String cluster) {
        List<String> rows = new ArrayList<>();
        for (Row row : pool.preparedQuery("SELECT (to_jsonb(t) - 'cluster' - 'id')::text FROM ledger." + table
                        + " t WHERE cluster = $1 ORDER BY 1").execute(Tuple.of(cluster)).await().atMost(Duration.ofSeconds(30))) {
            rows.add(row.getString(0));
        }
        return rows;
    }

    @Test
    void aBundleKeepsOneRowPerPodEventAndDerivesTheBooksOfItsViewsStoredOnTheirOwn() {
        Month month = Month.of();
        String carried = newCluster();
        String apart = newCluster();

        BundleResult together = send(carried, month.pods(), month.views());
        send(apart, month.pods(), List.of());
        BundleResult viewsAlone = send(apart, List.of(), month.views());

        assertEquals(5, together.facts().accepted());
        assertEquals(5, together.governance().accepted(), "a carried view counts as a governance fact stored");
        assertEquals(5, viewsAlone.governance().accepted());
        assertEquals(0, count("SELECT count(*) FROM ledger.gov_pod_status_fact WHERE cluster = $1", carried));
        assertEquals(5, count("SELECT count(*) FROM ledger.pod_fact WHERE cluster = $1 AND status IS NOT NULL", carried));
        assertEquals(5, count("SELECT count(*) FROM ledger.gov_pod_status_fact WHERE cluster = $1", apart));
        assertEquals(0, count("SELECT count(*) FROM ledger.pod_fact WHERE cluster = $1 AND status IS NOT NULL", apart));
        for (String table : List.of("gov_queue_wait", "gov_queue_item", "gov_incident")) {
            List<String> expected = book(table, apart);
            assertFalse(expected.isEmpty(), table + " has rows to compare");
            assertEquals(expected, book(table, carried), table);
        }
        assertEquals(Set.copyOf(month.views()), Set.copyOf(views(carried, month)), "every view reads back as sent");
    }

    @Test
    void viewsSentAsCarriedFieldsStoreWhatWholeViewsStore() {
        Month month = Month.of();
        String carrying = newCluster();
        String whole = newCluster();
        FactBatch facts = new FactBatch(carrying, List.of(), List.of(), month.pods());
        FactBundle bundle = FactBundle.carrying(facts, GovernanceBatch.of(carrying, month.views()));
        assertEquals(5, bundle.carriedStatuses().size(), "the month's views are what their pod versions make");

        BundleResult carried = bundles.ingest(bundle).await().atMost(Duration.ofSeconds(30));
        BundleResult sentWhole = send(whole, month.pods(), month.views());

        assertEquals(sentWhole, carried);
        assertEquals(5, count("SELECT count(*) FROM ledger.pod_fact WHERE cluster = $1 AND status IS NOT NULL", carrying));
        for (String table : List.of("gov_queue_wait", "gov_queue_item", "gov_incident")) {
            assertEquals(book(table, whole), book(table, carrying), table);
        }
        assertEquals(Set.copyOf(month.views()), Set.copyOf(views(carrying, month)), "every view reads back as sent");
        BundleResult again = bundles.ingest(bundle).await().atMost(Duration.ofSeconds(30));
        assertEquals(5, again.governance().duplicates());
    }

    @Test
    void aBundleSentTwiceStoresOnce() {
        Month month = Month.of();
        String cluster = newCluster();
        send(cluster, month.pods(), month.views());

        BundleResult again = send(cluster, month.pods(), month.views());

        assertEquals(0, again.facts().accepted());
        assertEquals(5, again.facts().duplicates());
        assertEquals(0, again.governance().accepted());
        assertEquals(5, again.governance().duplicates());
        assertEquals(5, count("SELECT count(*) FROM ledger.pod_status_version WHERE cluster = $1", cluster));
        assertEquals(5, count("SELECT count(*) FROM ledger.pod_fact WHERE cluster = $1", cluster));
    }

    @Test
    void aViewItsPodVersionDoesNotMakeIsStoredOnItsOwnAsSent() {
        Month month = Month.of();
        String cluster = newCluster();
        List<PodStatusFact> views = new ArrayList<>(month.views());
        PodStatusFact other = views.get(2);
        // the governance view saw another phase than the metering view of the same version
        PodStatusFact disagreeing = new PodStatusFact(other.uid(), other.namespace(), other.name(), other.resourceVersion(),
                other.type(), other.observedAt(), other.createdAt(), other.scheduledAt(), other.deletedAt(),
                other.nodeName(), other.schedulerName(), "Unknown", other.reason(), other.message(), other.owner(),
                other.groupName(), other.queueName(), other.gpuResources(), other.readyChangedAt(), other.containers());
        views.set(2, disagreeing);

        BundleResult result = send(cluster, month.pods(), views);

        assertEquals(5, result.governance().accepted());
        assertEquals(1, count("SELECT count(*) FROM ledger.gov_pod_status_fact WHERE cluster = $1", cluster));
        assertEquals(4, count("SELECT count(*) FROM ledger.pod_fact WHERE cluster = $1 AND status IS NOT NULL", cluster));
        assertEquals(Set.copyOf(views), Set.copyOf(views(cluster, month)));
    }

    @Test
    void aViewStoredBeforeItsPodVersionIsNotStoredTwice() {
        Month month = Month.of();
        String cluster = newCluster();
        send(cluster, List.of(), month.views().subList(0, 2));

        BundleResult pair = send(cluster, month.pods(), month.views());

        assertEquals(5, pair.facts().accepted());
        assertEquals(3, pair.governance().accepted());
        assertEquals(2, pair.governance().duplicates());
        assertEquals(5, count("SELECT count(*) FROM ledger.pod_status_version WHERE cluster = $1", cluster));
        assertEquals(3, count("SELECT count(*) FROM ledger.pod_fact WHERE cluster = $1 AND status IS NOT NULL", cluster));
        assertEquals(Set.copyOf(month.views()), Set.copyOf(views(cluster, month)));
    }

    @Test
    void aPodVersionStoredAloneLeavesItsLaterViewToARowOfItsOwn() {
        Month month = Month.of();
        String cluster = newCluster();
        send(cluster, month.pods(), List.of());

        BundleResult pair = send(cluster, month.pods(), month.views());

        assertEquals(5, pair.facts().duplicates());
        assertEquals(5, pair.governance().accepted());
        assertEquals(5, count("SELECT count(*) FROM ledger.gov_pod_status_fact WHERE cluster = $1", cluster));
        assertEquals(0, count("SELECT count(*) FROM ledger.pod_fact WHERE cluster = $1 AND status IS NOT NULL", cluster));
    }

    @Test
    void onlyTheNewPodVersionsOfAPartlyStoredBundleCarryTheirViews() {
        Month month = Month.of();
        String cluster = newCluster();
        send(cluster, month.pods().subList(0, 2), List.of());

        BundleResult pair = send(cluster, month.pods(), month.views());

        assertEquals(3, pair.facts().accepted());
        assertEquals(2, pair.facts().duplicates());
        assertEquals(5, pair.governance().accepted());
        assertEquals(3, count("SELECT count(*) FROM ledger.pod_fact WHERE cluster = $1 AND status IS NOT NULL", cluster),
                "the three new versions carry their views");
        assertEquals(2, count("SELECT count(*) FROM ledger.gov_pod_status_fact WHERE cluster = $1", cluster),
                "the views of the two versions stored before are rows of their own");
        assertEquals(Set.copyOf(month.views()), Set.copyOf(views(cluster, month)));
    }

    @Test
    void theAnalyticsViewShowsACarriedViewsStatusFields() {
        Month month = Month.of();
        String cluster = newCluster();
        send(cluster, month.pods(), month.views());

        List<String> payloads = new ArrayList<>();
        for (Row row : pool.preparedQuery("""
                        SELECT payload::text FROM ledger.gov_pod_status_fact_fields
                        WHERE cluster = $1 AND resource_version = '3' AND node_name = 'gpu-1'""")
                .execute(Tuple.of(cluster)).await().atMost(Duration.ofSeconds(30))) {
            payloads.add(row.getString(0));
        }

        assertEquals(1, payloads.size());
        assertTrue(payloads.get(0).contains("\"OOMKilled\"") && payloads.get(0).contains("\"queueName\": \"team-a\""),
                payloads.get(0));
    }

    private List<PodStatusFact> views(String cluster, Month month) {
        Set<String> uids = new HashSet<>();
        month.pods().forEach(p -> uids.add(p.uid()));
        return source.pods(pool, cluster, uids).await().atMost(Duration.ofSeconds(30));
    }
}
