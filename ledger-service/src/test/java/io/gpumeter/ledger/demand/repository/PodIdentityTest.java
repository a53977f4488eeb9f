package io.gpumeter.ledger.demand.repository;

import io.gpumeter.common.fact.FactBatch;
import io.gpumeter.common.fact.FactBundle;
import io.gpumeter.common.fact.Owner;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.common.fact.WatchEventType;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.gpumeter.ledger.demand.domain.PodIdentity;
import io.gpumeter.ledger.service.BundleIngestService;
import io.gpumeter.ledger.service.IngestService;
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
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * What each pod is by its newest version, kept in its lifecycle row at intake (V41) from versions sent out of order,
 * twice and through both intake paths, and read back by the demand: every expected row worked out by hand from the
 * versions written here. Times are of 2026-09-01, hh:mm.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class PodIdentityTest {

    private static final Duration WAIT = Duration.ofSeconds(60);

    @Inject
    IngestService facts;

    @Inject
    BundleIngestService bundles;

    @Inject
    DemandRepository demand;

    @Inject
    Pool pool;

    private static PodFact version(String uid, String rv, WatchEventType type, String observed, Owner owner,
                                   Map<String, String> labels) {
        Instant at = Instant.parse("2026-09-01T" + observed + ":00Z");
        return new PodFact(uid, "ns-" + uid, "pod-" + uid, rv, type, at, at, at, "node-1", "Running",
                "default-scheduler", false, null, null, owner, labels, Map.of("nvidia.com/gpu", 1L), List.of());
    }

    private void send(String cluster, PodFact... pods) {
        facts.ingest(new FactBatch(cluster, List.of(), List.of(), List.of(pods))).await().atMost(WAIT);
    }

    private void sendBundle(String cluster, PodFact... pods) {
        bundles.ingest(new FactBundle(new FactBatch(cluster, List.of(), List.of(), List.of(pods)), null)).await().atMost(WAIT);
    }

    /** uid|version|event|namespace|name|owner kind|owner name|owner apiVersion|labels, "-" for none. */
    private List<String> rows(String cluster) {
        List<String> out = new ArrayList<>();
        for (Row r : pool.preparedQuery("""
                        SELECT concat_ws('|', uid, version, version_event, namespace, name, coalesce(owner_kind, '-'),
                                         coalesce(owner_name, '-'), coalesce(owner_api_version, '-'), labels::text) AS line
                        FROM ledger.pod_lifecycle WHERE cluster = $1 ORDER BY uid""")
                .execute(Tuple.of(cluster)).await().atMost(WAIT)) {
            out.add(r.getString("line"));
        }
        return out;
    }

    @Test
    void theNewestVersionDecidesWhateverTheOrderOfArrival() {
        String cluster = "ident-" + UUID.randomUUID().toString().substring(0, 8);
        Owner batchJob = new Owner("Job", "train", "batch/v1");
        // a: relabelled at 10:05; the newer version arrives first.
        PodFact a1 = version("a", "1", WatchEventType.ADDED, "10:00", batchJob, Map.of("team", "x"));
        PodFact a2 = version("a", "2", WatchEventType.MODIFIED, "10:05", batchJob,
                Map.of("team", "y", "kueue.x-k8s.io/queue-name", "q"));
        // b: its first version was delivered without the owner's apiVersion, its second with it.
        PodFact b1 = version("b", "5", WatchEventType.ADDED, "10:00", new Owner("Job", "mpi"), Map.of());
        PodFact b2 = version("b", "6", WatchEventType.MODIFIED, "10:30", new Owner("Job", "mpi", "batch.volcano.sh/v1alpha1"),
                Map.of());
        // c: two versions seen at the same instant, rv "9" and "10": the longer is the newer, though "9" > "10" as text.
        PodFact c9 = version("c", "9", WatchEventType.MODIFIED, "11:00", batchJob, Map.of("step", "nine"));
        PodFact c10 = version("c", "10", WatchEventType.MODIFIED, "11:00", batchJob, Map.of("step", "ten"));
        // d: at the same instant, rv "31" and "32" of one length: "32", the greater text; sent in one batch, 32 first.
        PodFact d32 = version("d", "32", WatchEventType.MODIFIED, "11:00", batchJob, Map.of("step", "32"));
        PodFact d31 = version("d", "31", WatchEventType.MODIFIED, "11:00", batchJob, Map.of("step", "31"));
        // e: no controller, no labels.
        PodFact e1 = version("e", "1", WatchEventType.ADDED, "12:00", null, Map.of());
        // f: one resource version as DELETED and as MODIFIED at one instant: MODIFIED, the greater text, decides.
        PodFact fDeleted = version("f", "7", WatchEventType.DELETED, "13:00", batchJob, Map.of("gone", "yes"));
        PodFact fModified = version("f", "7", WatchEventType.MODIFIED, "13:00", batchJob, Map.of("gone", "no"));

        send(cluster, a2, b2, c10, d32, d31, fModified);
        sendBundle(cluster, a1, c9, e1);
        send(cluster, b1, fDeleted);

        List<String> expected = List.of(
                "a|2|MODIFIED|ns-a|pod-a|Job|train|batch/v1|{\"team\": \"y\", \"kueue.x-k8s.io/queue-name\": \"q\"}",
                "b|6|MODIFIED|ns-b|pod-b|Job|mpi|batch.volcano.sh/v1alpha1|{}",
                "c|10|MODIFIED|ns-c|pod-c|Job|train|batch/v1|{\"step\": \"ten\"}",
                "d|32|MODIFIED|ns-d|pod-d|Job|train|batch/v1|{\"step\": \"32\"}",
                "e|1|ADDED|ns-e|pod-e|-|-|-|{}",
                "f|7|MODIFIED|ns-f|pod-f|Job|train|batch/v1|{\"gone\": \"no\"}");
        assertEquals(expected, rows(cluster));

        // Everything sent again, in one batch, oldest first: nothing changes.
        send(cluster, a1, a2, b1, b2, c9, c10, d31, d32, e1, fDeleted, fModified);
        assertEquals(expected, rows(cluster));

        // The demand's read: each pod's fields, owner null where the version names none; an unknown pod has none.
        Map<String, PodIdentity> read = demand.identities(List.of(cluster + "|a", cluster + "|b", cluster + "|c",
                cluster + "|e", cluster + "|f", cluster + "|unknown", "elsewhere|a")).await().atMost(WAIT);
        assertEquals(Map.of(
                cluster + "|a", new PodIdentity("ns-a", "pod-a", batchJob, Map.of("team", "y", "kueue.x-k8s.io/queue-name", "q")),
                cluster + "|b", new PodIdentity("ns-b", "pod-b", new Owner("Job", "mpi", "batch.volcano.sh/v1alpha1"), Map.of()),
                cluster + "|c", new PodIdentity("ns-c", "pod-c", batchJob, Map.of("step", "ten")),
                cluster + "|e", new PodIdentity("ns-e", "pod-e", null, Map.of()),
                cluster + "|f", new PodIdentity("ns-f", "pod-f", batchJob, Map.of("gone", "no"))), read);
    }
}
