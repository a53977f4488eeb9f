package io.gpumeter.ledger.repository;

import io.gpumeter.common.fact.Owner;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.common.fact.WatchEventType;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Versions a batch has just stored come from hand, also when the collector's clock read nanoseconds the column does
 * not keep; a version whose observation differs from the one in hand is read as stored.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class VersionsInHandTest {

    private static final Instant ADDED_AT = Instant.parse("2026-05-04T10:15:30.123456789Z");
    private static final Instant RUNNING_AT = Instant.parse("2026-05-04T10:16:00.000000500Z");

    @Inject
    Pool pool;

    @Inject
    FactRepository facts;

    private static PodFact version(String uid, String rv, WatchEventType type, Instant observed, String phase) {
        return new PodFact(uid, "team-a", "pod-" + uid, rv, type, observed, null, null, "node-1", phase,
                "default-scheduler", false, null, null, new Owner("Job", "job-" + uid), Map.of(),
                Map.of("nvidia.com/gpu", 1L), List.of());
    }

    @Test
    void aVersionJustStoredIsTakenFromHandToTheMicrosecondAndAnyOtherIsReadAsStored() {
        String cluster = "hand-" + UUID.randomUUID().toString().substring(0, 8);
        String uid = UUID.randomUUID().toString();
        List<PodFact> stored = List.of(version(uid, "1", WatchEventType.ADDED, ADDED_AT, "Pending"),
                version(uid, "2", WatchEventType.MODIFIED, RUNNING_AT, "Running"));
        // What the hand holds differs from the rows in its phase only, so the answer shows where each version came from.
        List<PodFact> inHand = List.of(version(uid, "1", WatchEventType.ADDED, ADDED_AT, "in hand"),
                version(uid, "2", WatchEventType.MODIFIED, RUNNING_AT.plusNanos(1_000), "in hand"));
        VersionsInHand<PodFact> hand = VersionsInHand.of(inHand, PodFact::uid, PodFact::resourceVersion,
                p -> p.type().name(), PodFact::observedAt);

        List<PodFact> read = pool.withTransaction(conn -> facts.insertPods(conn, cluster, stored)
                        .chain(() -> facts.podVersions(conn, cluster, List.of(uid), hand)))
                .await().atMost(Duration.ofSeconds(30))
                .stream().sorted(Comparator.comparing(PodFact::resourceVersion)).toList();

        assertEquals(List.of("in hand", "Running"), read.stream().map(PodFact::phase).toList());
        assertEquals(ADDED_AT, read.get(0).observedAt());
        assertEquals(RUNNING_AT, read.get(1).observedAt(), "the payload keeps the nanoseconds the column does not");
    }

    @Test
    void theColumnKeepsMicroseconds() {
        assertEquals(Instant.parse("2026-05-04T10:15:30.123456Z"), VersionsInHand.storedAs(ADDED_AT));
        assertEquals(RUNNING_AT.minusNanos(500), VersionsInHand.storedAs(RUNNING_AT));
    }
}
