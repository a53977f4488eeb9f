package io.gpumeter.ledger.repository;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The keys a bundle's pods had stored before it, read once for both halves, hold each half's versions exactly as
 * each half reading its own relation does: pod versions with and without a carried view, views kept on their own,
 * a version stored in both places, pods with nothing stored, versions repeated with another observation time.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class PodKeysBeforeTest {

    private static final Instant AT = Instant.parse("2026-05-04T10:15:30.123456Z");

    @Inject
    Pool pool;

    /** A version as a batch holds it: only its key and observation time matter to the hand. */
    record Version(String uid, String resourceVersion, String eventType, Instant observedAt) {
    }

    private static final VersionRelation<Version> POD_VERSIONS =
            new VersionRelation<>("pod_fact", "uid", row -> null);
    private static final VersionRelation<Version> POD_VIEWS =
            new VersionRelation<>("pod_status_version", "uid", row -> null);

    @Test
    void keysReadOnceHoldBothHalvesAsEachReadingItsOwnRelation() {
        String cluster = "keys-" + UUID.randomUUID().toString().substring(0, 8);
        String carried = UUID.randomUUID().toString();
        String bare = UUID.randomUUID().toString();
        String alone = UUID.randomUUID().toString();
        String both = UUID.randomUUID().toString();
        String fresh = UUID.randomUUID().toString();
        String elsewhere = UUID.randomUUID().toString();
        podVersion(cluster, carried, "1", "ADDED", AT, true);
        podVersion(cluster, carried, "2", "MODIFIED", AT.plusSeconds(1), true);
        podVersion(cluster, bare, "3", "ADDED", AT, false);
        view(cluster, alone, "4", "MODIFIED", AT);
        podVersion(cluster, both, "5", "ADDED", AT, false);
        view(cluster, both, "5", "ADDED", AT);
        podVersion(cluster, both, "6", "MODIFIED", AT.plusSeconds(2), true);
        podVersion("another-" + cluster, elsewhere, "7", "ADDED", AT, true);

        List<Version> batch = new ArrayList<>();
        for (String uid : List.of(carried, bare, alone, both, fresh, elsewhere)) {
            for (int rv = 1; rv <= 8; rv++) {
                batch.add(new Version(uid, String.valueOf(rv), rv % 2 == 0 ? "MODIFIED" : "ADDED", AT));
                batch.add(new Version(uid, String.valueOf(rv), "DELETED", AT.plusSeconds(rv)));
            }
        }
        batch.add(new Version(carried, "2", "MODIFIED", AT.plusSeconds(1))); // repeated as stored: from hand

        Set<String> uids = batch.stream().map(Version::uid).collect(Collectors.toCollection(LinkedHashSet::new));
        PodKeysBefore keys = pool.withTransaction(conn -> PodKeysBefore.read(conn, cluster, uids))
                .await().atMost(Duration.ofSeconds(30));
        VersionsInHand<Version> versionsAlone = pool.withTransaction(conn -> VersionsInHand.before(conn, POD_VERSIONS,
                cluster, batch, Version::uid, Version::resourceVersion, Version::eventType, Version::observedAt))
                .await().atMost(Duration.ofSeconds(30));
        VersionsInHand<Version> viewsAlone = pool.withTransaction(conn -> VersionsInHand.before(conn, POD_VIEWS,
                cluster, batch, Version::uid, Version::resourceVersion, Version::eventType, Version::observedAt))
                .await().atMost(Duration.ofSeconds(30));
        VersionsInHand<Version> versionsOnce = hold(POD_VERSIONS, batch, keys.podVersions());
        VersionsInHand<Version> viewsOnce = hold(POD_VIEWS, batch, keys.podStatuses());

        assertEquals(versionsAlone.unstoredFacts(), versionsOnce.unstoredFacts());
        assertEquals(viewsAlone.unstoredFacts(), viewsOnce.unstoredFacts());
        // 96 distinct keys in the batch (one repeated), 5 of them stored before in each relation
        assertEquals(91, versionsOnce.unstoredFacts().size(), "carried 1 and 2, bare 3, both 5 and 6 are pod versions");
        assertEquals(91, viewsOnce.unstoredFacts().size(), "carried 1 and 2, alone 4, both 5 (on its own) and 6 are views");
        for (String uid : uids) {
            assertEquals(List.copyOf(versionsAlone.wholeInHand(uid)), List.copyOf(versionsOnce.wholeInHand(uid)), uid);
            assertEquals(List.copyOf(viewsAlone.wholeInHand(uid)), List.copyOf(viewsOnce.wholeInHand(uid)), uid);
        }
        assertEquals(16, versionsOnce.wholeInHand(alone).size(), "a view on its own is no pod version");
        assertEquals(16, viewsOnce.wholeInHand(bare).size(), "a pod version without a view is no view");
        assertEquals(0, viewsOnce.wholeInHand(alone).size());
        assertEquals(0, versionsOnce.wholeInHand(both).size());
        assertEquals(16, viewsOnce.wholeInHand(fresh).size(), "nothing stored: the pod is whole in hand");
        assertEquals(16, versionsOnce.wholeInHand(elsewhere).size(), "another cluster's versions are not this one's");
    }

    @Test
    void aPodWhoseKeysWereNotReadIsRefusedRatherThanTakenAsNew() {
        String uid = UUID.randomUUID().toString();
        List<Version> batch = List.of(new Version(uid, "1", "ADDED", AT));
        PodKeysBefore keys = pool.withTransaction(conn -> PodKeysBefore.read(conn, "keys-none", Set.of("some-other-pod")))
                .await().atMost(Duration.ofSeconds(30));

        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> hold(POD_VERSIONS, batch, keys.podVersions()));
        assertTrue(refused.getMessage().contains(uid), refused.getMessage());
        assertThrows(IllegalStateException.class, () -> hold(POD_VIEWS, batch, keys.podStatuses()));
    }

    @Test
    void aHandTakenBeforeItsKeysTakesEveryVersionForNewUntilItIsGivenThemOnce() {
        String cluster = "keys-taken-" + UUID.randomUUID().toString().substring(0, 8);
        String stored = UUID.randomUUID().toString();
        String fresh = UUID.randomUUID().toString();
        podVersion(cluster, stored, "1", "ADDED", AT, false);
        List<Version> batch = List.of(new Version(stored, "1", "ADDED", AT), new Version(stored, "2", "MODIFIED", AT),
                new Version(fresh, "3", "ADDED", AT), new Version(fresh, "3", "ADDED", AT.plusSeconds(1)));
        VersionsInHand<Version> hand = VersionsInHand.taken(POD_VERSIONS, batch, Version::uid, Version::resourceVersion,
                Version::eventType, Version::observedAt);

        assertEquals(List.of(batch.get(0), batch.get(1), batch.get(2)), hand.unstoredFacts(), "the first of each key");
        assertTrue(hand.everyVersionNew());

        PodKeysBefore keys = pool.withTransaction(conn -> PodKeysBefore.read(conn, cluster, Set.of(stored, fresh)))
                .await().atMost(Duration.ofSeconds(30));
        hand.withKeys(keys.podVersions());

        assertEquals(List.of(batch.get(1), batch.get(2)), hand.unstoredFacts());
        assertFalse(hand.everyVersionNew(), "version 1 of the stored pod was stored before");
        assertEquals(List.of(batch.get(2)), List.copyOf(hand.wholeInHand(fresh)));
        assertThrows(IllegalStateException.class, () -> hand.withKeys(keys.podVersions()), "keys are given once");
    }

    @Test
    void laterVersionsOfAPodStoredBeforeAreAllNew() {
        String cluster = "keys-later-" + UUID.randomUUID().toString().substring(0, 8);
        String stored = UUID.randomUUID().toString();
        podVersion(cluster, stored, "1", "ADDED", AT, false);
        List<Version> batch = List.of(new Version(stored, "2", "MODIFIED", AT), new Version(stored, "1", "MODIFIED", AT),
                new Version(stored, "3", "DELETED", AT));
        VersionsInHand<Version> hand = VersionsInHand.taken(POD_VERSIONS, batch, Version::uid, Version::resourceVersion,
                Version::eventType, Version::observedAt);
        PodKeysBefore keys = pool.withTransaction(conn -> PodKeysBefore.read(conn, cluster, Set.of(stored)))
                .await().atMost(Duration.ofSeconds(30));
        hand.withKeys(keys.podVersions());

        assertTrue(hand.everyVersionNew(), "the same resource version with another event type is another version");
        assertEquals(batch, hand.unstoredFacts());
        assertEquals(0, hand.wholeInHand(stored).size(), "its first version is only in the table");
    }

    @Test
    void noPodsReadNothing() {
        PodKeysBefore keys = pool.withTransaction(conn -> PodKeysBefore.read(conn, "keys-none", Set.of()))
                .await().atMost(Duration.ofSeconds(30));

        assertEquals(List.of(), hold(POD_VERSIONS, List.of(), keys.podVersions()).unstoredFacts());
    }

    private static VersionsInHand<Version> hold(VersionRelation<Version> relation, List<Version> batch,
                                                KeysBefore keys) {
        return VersionsInHand.taken(relation, batch, Version::uid, Version::resourceVersion, Version::eventType,
                Version::observedAt).withKeys(keys);
    }

    private void podVersion(String cluster, String uid, String rv, String type, Instant at, boolean carriesView) {
        pool.preparedQuery("""
                        INSERT INTO ledger.pod_fact (cluster, uid, resource_version, event_type, namespace, node_name,
                            observed_at, payload, name, owner_kind, owner_name, status)
                        VALUES ($1, $2, $3, $4, 'team-a', 'node-1', $5, '{}'::json, 'pod-' || $2, 'Job', 'job-a',
                            CASE WHEN $6 THEN '{"phase":"Running"}'::json END)""")
                .execute(Tuple.from(List.of(cluster, uid, rv, type, OffsetDateTime.ofInstant(at, ZoneOffset.UTC), carriesView)))
                .await().atMost(Duration.ofSeconds(30));
    }

    private void view(String cluster, String uid, String rv, String type, Instant at) {
        pool.preparedQuery("""
                        INSERT INTO ledger.gov_pod_status_fact (cluster, uid, resource_version, event_type, namespace, name,
                            owner_kind, owner_name, observed_at, payload)
                        VALUES ($1, $2, $3, $4, 'team-a', 'pod-' || $2, 'Job', 'job-a', $5, '{}')""")
                .execute(Tuple.of(cluster, uid, rv, type, OffsetDateTime.ofInstant(at, ZoneOffset.UTC)))
                .await().atMost(Duration.ofSeconds(30));
    }
}
