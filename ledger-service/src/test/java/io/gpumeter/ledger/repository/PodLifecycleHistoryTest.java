package io.gpumeter.ledger.repository;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.common.fact.FactBatch;
import io.gpumeter.common.fact.FactBundle;
import io.gpumeter.common.fact.Owner;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.common.fact.WatchEventType;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.gpumeter.ledger.service.BundleIngestService;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The lifecycle rows kept at intake equal what the pending read computed from every stored version before them (the
 * statement is repeated here), over a generated history of two clusters: pods created at random instants with
 * nanosecond fractions, scheduled or not, finishing, failing, deleted with their deletion asked before or after it
 * was seen, some without a creation time, resources changing; every version shuffled, sent in batches through the
 * facts endpoint and as bundles, one batch twice. And the pending read answers as that statement did.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class PodLifecycleHistoryTest {

    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final Instant START = Instant.parse("2026-10-01T00:00:00Z");

    /** The pending read's statement before the lifecycle was kept (of every version), for one cluster. */
    private static final String FROM_VERSIONS = """
            SELECT uid, min(coalesce(created_at, observed_at)) AS created, min(scheduled_at) AS scheduled,
                   min(least(observed_at, deletion_at)) FILTER (WHERE event_type = 'DELETED') AS deleted,
                   min(observed_at) FILTER (WHERE phase IN ('Succeeded', 'Failed')) AS finished,
                   (array_agg(gpu_resources ORDER BY observed_at DESC))[1]::text AS resources
            FROM ledger.pod_fact_fields WHERE cluster = $1 GROUP BY uid""";

    /**
     * The pending read's former statement, but for a wait of no length (ended at or before creation), which the idle
     * split has always dropped and the read now leaves out itself.
     */
    private static final String PENDING_FROM_VERSIONS = """
            WITH p AS (%s)
            SELECT uid, created, least(scheduled, deleted, finished) AS ended, resources FROM p
            WHERE created < $3 AND coalesce(least(scheduled, deleted, finished), 'infinity'::timestamptz) > $2
              AND coalesce(least(scheduled, deleted, finished), 'infinity'::timestamptz) > created
            ORDER BY created, uid""".formatted(FROM_VERSIONS);

    @Inject
    Pool pool;

    @Inject
    ObjectMapper json;

    @Inject
    BundleIngestService bundles;

    @Inject
    PendingPodsRepository pending;

    /** One pod's versions, observed strictly one after another (the old statement's newest version is then one). */
    private static List<PodFact> history(Random random, String uid) {
        Instant created = START.plusSeconds(random.nextInt(2 * 86_400)).plusNanos(random.nextInt(1_000_000_000));
        Instant seen = created.plusMillis(random.nextInt(5_000));
        boolean knowsCreation = random.nextInt(10) > 0;
        long gpus = 1 + random.nextInt(4);
        List<PodFact> out = new ArrayList<>();
        out.add(pod(uid, 1, WatchEventType.ADDED, seen, knowsCreation ? created : null, null, "Pending", null, gpus));
        Instant scheduled = null;
        int rv = 2;
        if (random.nextInt(10) < 7) {
            scheduled = seen.plusSeconds(1 + random.nextInt(7_200)).plusNanos(random.nextInt(1_000_000_000));
            seen = scheduled.plusMillis(1 + random.nextInt(3_000));
            if (random.nextInt(5) == 0) {
                gpus = 1 + random.nextInt(8); // asked again: the newest version's resources differ
            }
            out.add(pod(uid, rv++, WatchEventType.MODIFIED, seen, created, scheduled, "Running", null, gpus));
        }
        String phase = "Pending";
        int end = random.nextInt(4);
        if (end == 1 || end == 2) {
            phase = end == 1 ? "Succeeded" : "Failed";
            seen = seen.plusSeconds(1 + random.nextInt(20_000)).plusNanos(random.nextInt(1_000_000_000));
            out.add(pod(uid, rv++, WatchEventType.MODIFIED, seen, created, scheduled, phase, null, gpus));
        }
        if (end >= 2 || random.nextInt(3) == 0) {
            Instant asked = seen.plusSeconds(random.nextInt(600) - 300).plusNanos(random.nextInt(1_000_000_000));
            seen = seen.plusSeconds(1 + random.nextInt(600)).plusNanos(random.nextInt(1_000_000_000));
            out.add(pod(uid, rv, WatchEventType.DELETED, seen, created, scheduled, phase, asked, gpus));
        }
        return out;
    }

    private static PodFact pod(String uid, int rv, WatchEventType type, Instant observed, Instant created,
                               Instant scheduled, String phase, Instant deletion, long gpus) {
        return new PodFact(uid, "ml", "p-" + uid.substring(0, 8), String.valueOf(rv), type, observed, created, scheduled,
                scheduled == null ? null : "node-1", phase, "default-scheduler", false, null, deletion,
                new Owner("Job", "train"), Map.of(), Map.of("nvidia.com/gpu", gpus), List.of());
    }

    @Test
    void theRowsKeptAtIntakeEqualTheStatementOverEveryVersion() throws Exception {
        Random random = new Random(47);
        String tag = UUID.randomUUID().toString().substring(0, 8);
        List<String> clusters = List.of("hist-a-" + tag, "hist-b-" + tag);
        for (String cluster : clusters) {
            List<PodFact> versions = new ArrayList<>();
            for (int i = 0; i < 300; i++) {
                versions.addAll(history(random, new UUID(random.nextLong(), random.nextLong()).toString()));
            }
            Collections.shuffle(versions, random);
            List<List<PodFact>> batches = new ArrayList<>();
            for (int from = 0; from < versions.size(); from += 200) {
                batches.add(versions.subList(from, Math.min(versions.size(), from + 200)));
            }
            batches.add(batches.get(1)); // a batch sent twice
            for (int b = 0; b < batches.size(); b++) {
                FactBatch batch = new FactBatch(cluster, List.of(), List.of(), batches.get(b));
                if (b % 2 == 0) {
                    given().contentType(ContentType.JSON).body(json.writeValueAsString(batch)).post("/api/v1/facts")
                            .then().statusCode(200);
                } else {
                    bundles.ingest(new FactBundle(batch, null)).await().atMost(WAIT);
                }
            }

            List<String> fromVersions = rows(FROM_VERSIONS + " ORDER BY uid", Tuple.of(cluster));
            List<String> kept = rows("""
                    SELECT uid, created, scheduled, deleted, finished, resources::text AS resources
                    FROM ledger.pod_lifecycle WHERE cluster = $1 ORDER BY uid""", Tuple.of(cluster));
            assertEquals(300, fromVersions.size());
            assertEquals(fromVersions, kept);
            // Not vacuous: the history has every kind of pod.
            assertTrue(kept.stream().filter(r -> r.contains("|null|null|null|")).count() > 3, "never scheduled nor ended");
            assertTrue(kept.stream().filter(r -> r.split("\\|")[2].equals("null") && !r.split("\\|")[3].equals("null")).count() > 3,
                    "deleted unscheduled");
            assertTrue(kept.stream().filter(r -> r.split("\\|")[2].equals("null") && !r.split("\\|")[4].equals("null")).count() > 3,
                    "finished unscheduled");
        }

        for (Instant from = START; from.isBefore(START.plusSeconds(3 * 86_400)); from = from.plusSeconds(43_200)) {
            Instant cap = from.plusSeconds(21_600);
            List<String> read = new ArrayList<>();
            List<String> statement = new ArrayList<>();
            for (PendingPodsRepository.PendingPod p : pending.pending(from, cap, null).await().atMost(WAIT)) {
                if (clusters.contains(p.cluster())) {
                    read.add(p.cluster() + "|" + p.uid() + "|" + p.since() + "|" + p.until() + "|" + p.resources());
                }
            }
            for (String cluster : clusters) {
                List<String> one = new ArrayList<>();
                for (PendingPodsRepository.PendingPod p : pending.pending(from, cap, cluster).await().atMost(WAIT)) {
                    one.add(p.cluster() + "|" + p.uid() + "|" + p.since() + "|" + p.until() + "|" + p.resources());
                }
                List<String> old = new ArrayList<>();
                for (Row r : pool.preparedQuery(PENDING_FROM_VERSIONS).execute(Tuple.of(cluster, Columns.offset(from),
                        Columns.offset(cap))).await().atMost(WAIT)) {
                    old.add(cluster + "|" + r.getString("uid") + "|" + text(r, "created") + "|" + text(r, "ended") + "|"
                            + r.getString("resources"));
                }
                assertEquals(old, one, "pending " + from + " to " + cap + " of " + cluster);
                statement.addAll(old);
            }
            assertEquals(statement, read, "pending " + from + " to " + cap + " of every cluster");
            assertTrue(!read.isEmpty(), "pods waited between " + from + " and " + cap);
        }
    }

    private List<String> rows(String sql, Tuple parameters) {
        List<String> out = new ArrayList<>();
        for (Row r : pool.preparedQuery(sql).execute(parameters).await().atMost(WAIT)) {
            out.add(String.join("|", r.getString("uid"), text(r, "created"), text(r, "scheduled"), text(r, "deleted"),
                    text(r, "finished"), r.getString("resources")));
        }
        return out;
    }

    private static String text(Row r, String column) {
        return r.getOffsetDateTime(column) == null ? "null" : r.getOffsetDateTime(column).toInstant().toString();
    }
}
