package io.gpumeter.ledger.governance.repository;

import io.gpumeter.common.fact.Owner;
import io.gpumeter.common.fact.PodStatusFact;
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
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A batch's pods are derived with every other pod of their owners, stored before or now: the owners of a pod wholly
 * in the batch come from hand, those of any other pod (stored before, perhaps under another owner) from the ledger.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class PodSiblingsTest {

    private static final Instant AT = Instant.parse("2026-05-04T10:00:00Z");

    @Inject
    Pool pool;

    @Inject
    GovernanceFactRepository facts;

    @Inject
    GovernanceSourceRepository source;

    private static PodStatusFact pod(String uid, String rv, String owner) {
        return new PodStatusFact(uid, "ml", "pod-" + uid.substring(0, 8), rv, WatchEventType.ADDED, AT, AT, null, null,
                "node-1", "default-scheduler", "Pending", null, null, owner == null ? null : new Owner("Job", owner),
                null, null, Map.of("nvidia.com/gpu", 1L), null, List.of());
    }

    private static String uid() {
        return UUID.randomUUID().toString();
    }

    private Uni<Void> store(SqlConnection conn, String cluster, List<PodStatusFact> views) {
        return source.podsInHand(conn, cluster, views)
                .chain(hand -> facts.insertPodStatuses(conn, cluster, hand, CarriedStatuses.none())).replaceWithVoid();
    }

    /** The slices of the pods {@code touched} and their siblings, the batch taken into hand before it is stored. */
    private List<List<String>> siblings(String cluster, List<PodStatusFact> earlier, List<PodStatusFact> batch,
                                        Set<String> touched) {
        return pool.withTransaction(conn -> store(conn, cluster, earlier)
                        .chain(() -> source.podsInHand(conn, cluster, batch))
                        .call(hand -> facts.insertPodStatuses(conn, cluster, hand, CarriedStatuses.none()))
                        .chain(hand -> PodSiblings.withSiblings(conn, cluster, touched, hand)))
                .await().atMost(Duration.ofSeconds(30));
    }

    @Test
    void aNewPodIsDerivedWithItsOwnersPodsStoredBefore() {
        String cluster = "siblings-" + UUID.randomUUID().toString().substring(0, 8);
        String earlier = uid();
        String other = uid();
        String fresh = uid();
        String orphan = uid();

        List<List<String>> slices = siblings(cluster,
                List.of(pod(earlier, "1", "train"), pod(other, "2", "serve")),
                List.of(pod(fresh, "3", "train"), pod(fresh, "4", "train"), pod(orphan, "5", null)),
                Set.of(fresh, orphan));

        assertEquals(1, slices.size());
        assertEquals(Set.of(earlier, fresh, orphan), new HashSet<>(slices.get(0)), "the other owner's pod is not a sibling");
        int e = slices.get(0).indexOf(earlier);
        int f = slices.get(0).indexOf(fresh);
        assertEquals(1, Math.abs(e - f), "an owner's pods stay together: " + slices);
    }

    @Test
    void aPodStoredBeforeBringsTheOwnersOfItsEarlierVersions() {
        String cluster = "adopted-" + UUID.randomUUID().toString().substring(0, 8);
        String adopted = uid();
        String formerSibling = uid();
        String newSibling = uid();

        // the pod had another owner before this batch: its earlier owner's pods are its siblings too
        List<List<String>> slices = siblings(cluster,
                List.of(pod(adopted, "1", "old"), pod(formerSibling, "2", "old"), pod(newSibling, "3", "new")),
                List.of(pod(adopted, "4", "new")),
                Set.of(adopted));

        Set<String> all = new HashSet<>();
        slices.forEach(all::addAll);
        assertEquals(Set.of(adopted, formerSibling, newSibling), all);
    }

    @Test
    void aPodTheBatchDoesNotHoldIsFoundThroughTheLedger() {
        String cluster = "unheld-" + UUID.randomUUID().toString().substring(0, 8);
        String named = uid();
        String sibling = uid();

        List<List<String>> slices = siblings(cluster, List.of(pod(named, "1", "train"), pod(sibling, "2", "train")),
                List.of(), Set.of(named));

        assertEquals(1, slices.size());
        assertTrue(slices.get(0).containsAll(List.of(named, sibling)), slices.toString());
    }
}
