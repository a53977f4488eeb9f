package io.gpumeter.ledger.repository;

import io.gpumeter.common.fact.Owner;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.common.fact.WatchEventType;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.gpumeter.ledger.governance.domain.CarriedStatuses;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A batch's versions come from hand, also when the collector's clock read nanoseconds the column does not keep; what
 * was stored before the batch is read as stored unless the batch carries the same version, and a pod the batch does
 * not carry is read whole.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class VersionsInHandTest {

    private static final Instant ADDED_AT = Instant.parse("2026-05-04T10:15:30.123456789Z");
    private static final Instant RUNNING_AT = Instant.parse("2026-05-04T10:16:00.000000500Z");
    private static final Instant DONE_AT = Instant.parse("2026-05-04T11:00:00.000000700Z");

    @Inject
    Pool pool;

    @Inject
    FactRepository facts;

    private static PodFact version(String uid, String rv, WatchEventType type, Instant observed, String phase) {
        return new PodFact(uid, "team-a", "pod-" + uid, rv, type, observed, null, null, "node-1", phase,
                "default-scheduler", false, null, null, new Owner("Job", "job-" + uid), Map.of(),
                Map.of("nvidia.com/gpu", 1L), List.of());
    }

    /** A cluster of its own, so that no other test's versions are read. */
    private static String newCluster() {
        return "hand-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** Each version's phase, in resource-version order: "in hand" marks a copy the batch carried, not a stored row. */
    private List<String> phases(List<PodFact> read) {
        return read.stream().sorted(Comparator.comparing(PodFact::resourceVersion)).map(PodFact::phase).toList();
    }

    @Test
    void aBatchIsTakenFromHandAndWhatWasStoredBeforeItIsReadUnlessTheBatchCarriesTheSameVersion() {
        String cluster = newCluster();
        String uid = UUID.randomUUID().toString();
        String other = UUID.randomUUID().toString();
        List<PodFact> earlier = List.of(version(uid, "1", WatchEventType.ADDED, ADDED_AT, "Pending"),
                version(uid, "2", WatchEventType.MODIFIED, RUNNING_AT, "Running"),
                version(other, "5", WatchEventType.ADDED, ADDED_AT, "Pending"));
        // The batch repeats version 1 as observed (to the nanosecond), version 2 a microsecond later (so its copy is
        // not the stored row), and brings version 3.
        List<PodFact> batch = List.of(version(uid, "1", WatchEventType.ADDED, ADDED_AT, "in hand"),
                version(uid, "2", WatchEventType.MODIFIED, RUNNING_AT.plusNanos(1_000), "in hand"),
                version(uid, "3", WatchEventType.MODIFIED, DONE_AT, "in hand"));

        List<Inserted> inserted = new ArrayList<>();
        List<PodFact> read = pool.withTransaction(conn -> store(conn, cluster, earlier)
                        .chain(() -> facts.podsInHand(conn, cluster, batch))
                        .chain(hand -> facts.insertPods(conn, cluster, hand, CarriedStatuses.none(), ReceivedPayloads.none()).invoke(inserted::add)
                                .chain(() -> facts.podVersions(conn, cluster, List.of(uid, other), hand))))
                .await().atMost(Duration.ofSeconds(30));

        assertEquals(new Inserted(1, Set.of(uid)), inserted.get(0), "versions 1 and 2 were stored before the batch");
        assertEquals(List.of("in hand", "Running", "in hand", "Pending"), phases(read));
        PodFact first = read.stream().filter(p -> p.resourceVersion().equals("1")).findFirst().orElseThrow();
        PodFact second = read.stream().filter(p -> p.resourceVersion().equals("2")).findFirst().orElseThrow();
        assertEquals(ADDED_AT, first.observedAt());
        assertEquals(RUNNING_AT, second.observedAt(), "the payload keeps the nanoseconds the column does not");
    }

    @Test
    void withNothingInHandEveryVersionIsReadAsStored() {
        String cluster = newCluster();
        String uid = UUID.randomUUID().toString();
        List<PodFact> stored = List.of(version(uid, "1", WatchEventType.ADDED, ADDED_AT, "Pending"),
                version(uid, "2", WatchEventType.MODIFIED, RUNNING_AT, "Running"));

        List<PodFact> read = pool.withTransaction(conn -> store(conn, cluster, stored)
                        .chain(() -> facts.podVersions(conn, cluster, List.of(uid), facts.noPodsInHand())))
                .await().atMost(Duration.ofSeconds(30));

        assertEquals(List.of("Pending", "Running"), phases(read));
    }

    @Test
    void aBatchStoresTheFirstOfEachNewKeyOnceAndNothingWhenSentAgain() {
        String cluster = newCluster();
        String a = UUID.randomUUID().toString();
        String b = UUID.randomUUID().toString();
        List<PodFact> batch = List.of(version(b, "7", WatchEventType.ADDED, ADDED_AT, "Pending"),
                version(a, "1", WatchEventType.ADDED, ADDED_AT, "Pending"),
                version(a, "1", WatchEventType.ADDED, RUNNING_AT, "repeated"),
                version(a, "1", WatchEventType.DELETED, DONE_AT, "Succeeded"),
                version(b, "7", WatchEventType.ADDED, DONE_AT, "repeated"));

        Inserted first = pool.withTransaction(conn -> store(conn, cluster, batch)).await().atMost(Duration.ofSeconds(30));
        Inserted again = pool.withTransaction(conn -> store(conn, cluster, batch)).await().atMost(Duration.ofSeconds(30));
        List<PodFact> read = pool.withTransaction(conn -> facts.podVersions(conn, cluster, List.of(a, b),
                facts.noPodsInHand())).await().atMost(Duration.ofSeconds(30));

        assertEquals(3, first.count());
        assertEquals(List.of(b, a), List.copyOf(first.keys()), "keys in batch order");
        assertEquals(Inserted.NONE, again);
        assertEquals(Set.of(a + " 1 ADDED Pending", a + " 1 DELETED Succeeded", b + " 7 ADDED Pending"),
                read.stream().map(p -> p.uid() + " " + p.resourceVersion() + " " + p.type() + " " + p.phase())
                        .collect(Collectors.toSet()));
        assertEquals(3, read.size(), "a key repeated in the batch is stored once, as its first copy");
    }

    @Test
    void aVersionStoredBehindTheHandsBackIsStillRefusedByTheKey() {
        // Under the cluster lock no other writer can store it; without the lock the primary key is the safety net.
        String cluster = newCluster();
        String uid = UUID.randomUUID().toString();
        List<PodFact> batch = List.of(version(uid, "1", WatchEventType.ADDED, ADDED_AT, "Pending"));

        Throwable refused = assertThrows(Throwable.class, () -> pool.withTransaction(conn -> facts.podsInHand(conn, cluster, batch)
                        .call(() -> pool.withTransaction(other -> store(other, cluster, batch)))
                        .chain(hand -> facts.insertPods(conn, cluster, hand, CarriedStatuses.none(), ReceivedPayloads.none())))
                .await().atMost(Duration.ofSeconds(30)));

        assertTrue(refused.getMessage().contains("pod_fact_pkey"), refused.getMessage());
        List<PodFact> read = pool.withTransaction(conn -> facts.podVersions(conn, cluster, List.of(uid),
                facts.noPodsInHand())).await().atMost(Duration.ofSeconds(30));
        assertEquals(1, read.size(), "the other transaction's row, once");
    }

    private Uni<Inserted> store(SqlConnection conn, String cluster, List<PodFact> versions) {
        return facts.podsInHand(conn, cluster, versions).chain(hand -> facts.insertPods(conn, cluster, hand, CarriedStatuses.none(), ReceivedPayloads.none()));
    }

    @Test
    void onlyVersionTablesAreRead() {
        assertThrows(IllegalArgumentException.class, () -> new VersionRelation<PodFact>("allocation_segment", "payload", row -> null));
    }

    @Test
    void theColumnKeepsMicroseconds() {
        assertEquals(Instant.parse("2026-05-04T10:15:30.123456Z"), VersionsInHand.storedAs(ADDED_AT));
        assertEquals(RUNNING_AT.minusNanos(500), VersionsInHand.storedAs(RUNNING_AT));
    }
}
