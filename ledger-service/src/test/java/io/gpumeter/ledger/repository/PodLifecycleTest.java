package io.gpumeter.ledger.repository;

import io.gpumeter.common.fact.FactBatch;
import io.gpumeter.common.fact.FactBundle;
import io.gpumeter.common.fact.Owner;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.common.fact.WatchEventType;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
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
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Each pod's lifecycle row, kept at intake, on versions sent out of order, twice, in several batches and through
 * both intake paths; every expected row worked out by hand from the versions written here. Times are of
 * 2026-09-01, hh:mm. Then the pending read over that row.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class PodLifecycleTest {

    private static final Duration WAIT = Duration.ofSeconds(60);

    @Inject
    IngestService facts;

    @Inject
    BundleIngestService bundles;

    @Inject
    PendingPodsRepository pending;

    @Inject
    Pool pool;

    static Instant at(String hhmm) {
        return Instant.parse("2026-09-01T" + hhmm + ":00Z");
    }

    /** A version: observed, created (or null), scheduled (or null), phase, deletionTimestamp (or null), GPUs asked. */
    static PodFact version(String uid, String rv, WatchEventType type, String observed, String created,
                           String scheduled, String phase, String deletion, long gpus) {
        return new PodFact(uid, "ml", "train-" + uid, rv, type, at(observed), created == null ? null : at(created),
                scheduled == null ? null : at(scheduled), scheduled == null ? null : "node-1", phase,
                "default-scheduler", false, null, deletion == null ? null : at(deletion), new Owner("Job", "train"),
                Map.of(), Map.of("nvidia.com/gpu", gpus), List.of());
    }

    private void send(String cluster, PodFact... pods) {
        facts.ingest(new FactBatch(cluster, List.of(), List.of(), List.of(pods))).await().atMost(WAIT);
    }

    private void sendBundle(String cluster, PodFact... pods) {
        bundles.ingest(new FactBundle(new FactBatch(cluster, List.of(), List.of(), List.of(pods)), null)).await().atMost(WAIT);
    }

    /** uid|created|scheduled|deleted|finished|resources|resources observed, times as hh:mm, "-" for none. */
    private List<String> rows(String cluster) {
        List<String> out = new ArrayList<>();
        for (Row r : pool.preparedQuery("""
                        SELECT uid, created, scheduled, deleted, finished, resources::text AS resources, resources_observed_at
                        FROM ledger.pod_lifecycle WHERE cluster = $1 ORDER BY uid""")
                .execute(Tuple.of(cluster)).await().atMost(WAIT)) {
            out.add(String.join("|", r.getString("uid"), hhmm(r.getOffsetDateTime("created")),
                    hhmm(r.getOffsetDateTime("scheduled")), hhmm(r.getOffsetDateTime("deleted")),
                    hhmm(r.getOffsetDateTime("finished")), r.getString("resources"),
                    hhmm(r.getOffsetDateTime("resources_observed_at"))));
        }
        return out;
    }

    private static String hhmm(OffsetDateTime t) {
        return t == null ? "-" : t.toInstant().toString().substring(11, 16);
    }

    private static String hhmm(Instant t) {
        return t == null ? "-" : t.toString().substring(11, 16);
    }

    @Test
    void versionsOutOfOrderTwiceAndInSeveralBatchesLeaveTheRowsWorkedOutByHand() {
        String cluster = "life-" + UUID.randomUUID().toString().substring(0, 8);
        // a: runs 10:04-10:30; its last version first, the two before it in the next batch.
        PodFact a1 = version("a", "1", WatchEventType.ADDED, "10:00", "10:00", null, "Pending", null, 1);
        PodFact a2 = version("a", "2", WatchEventType.MODIFIED, "10:05", "10:00", "10:04", "Running", null, 1);
        PodFact a3 = version("a", "3", WatchEventType.MODIFIED, "10:30", "10:00", "10:04", "Succeeded", null, 1);
        // b: still waits; its one version sent twice, the second time observed later: the version stored is the first.
        PodFact b1 = version("b", "1", WatchEventType.ADDED, "11:00", "10:58", null, "Pending", null, 2);
        PodFact b1Later = version("b", "1", WatchEventType.ADDED, "11:10", "10:58", null, "Pending", null, 2);
        // c: deleted before it was scheduled; the deletion asked at 12:15 and seen at 12:20. A version before the
        // DELETED event carries a deletionTimestamp of 12:10 (a deletion asked, then withdrawn by its grace): only the
        // DELETED event's counts.
        PodFact c1 = version("c", "1", WatchEventType.ADDED, "12:00", "12:00", null, "Pending", null, 1);
        PodFact c2 = version("c", "2", WatchEventType.MODIFIED, "12:12", "12:00", null, "Pending", "12:10", 1);
        PodFact c3 = version("c", "3", WatchEventType.DELETED, "12:20", "12:00", null, "Pending", "12:15", 1);
        // d: failed at 13:07 without ever being scheduled.
        PodFact d1 = version("d", "1", WatchEventType.ADDED, "13:00", "12:59", null, "Pending", null, 1);
        PodFact d2 = version("d", "2", WatchEventType.MODIFIED, "13:07", "12:59", null, "Failed", null, 1);
        // e: asked for 4 GPUs, then 2 (newest); the newest arrives first, in another batch.
        PodFact e1 = version("e", "1", WatchEventType.ADDED, "14:00", "14:00", null, "Pending", null, 4);
        PodFact e2 = version("e", "2", WatchEventType.MODIFIED, "14:10", "14:00", null, "Pending", null, 2);
        // f and g: two versions observed at the same instant asking 1 and 3 GPUs, sent in opposite orders: both rows
        // take the greater text, 3, whatever came first.
        PodFact f1 = version("f", "1", WatchEventType.ADDED, "15:00", "15:00", null, "Pending", null, 1);
        PodFact f2 = version("f", "2", WatchEventType.MODIFIED, "15:00", "15:00", null, "Pending", null, 3);
        PodFact g1 = version("g", "1", WatchEventType.ADDED, "15:00", "15:00", null, "Pending", null, 1);
        PodFact g2 = version("g", "2", WatchEventType.MODIFIED, "15:00", "15:00", null, "Pending", null, 3);
        // h: its first version says no creation time (observed 16:00), its second says 16:02: created is 16:00.
        PodFact h1 = version("h", "1", WatchEventType.ADDED, "16:00", null, null, "Pending", null, 1);
        PodFact h2 = version("h", "2", WatchEventType.MODIFIED, "16:05", "16:02", "16:03", "Running", null, 1);

        send(cluster, a3, b1, c3, e2, f2, g1, h2);
        sendBundle(cluster, a1, a2, c1, d2, f1, b1);
        send(cluster, b1Later, c2, e1, g2, h1, d1, a2);

        assertEquals(List.of(
                "a|10:00|10:04|-|10:30|{\"nvidia.com/gpu\": 1}|10:30",
                "b|10:58|-|-|-|{\"nvidia.com/gpu\": 2}|11:00",
                "c|12:00|-|12:15|-|{\"nvidia.com/gpu\": 1}|12:20",
                "d|12:59|-|-|13:07|{\"nvidia.com/gpu\": 1}|13:07",
                "e|14:00|-|-|-|{\"nvidia.com/gpu\": 2}|14:10",
                "f|15:00|-|-|-|{\"nvidia.com/gpu\": 3}|15:00",
                "g|15:00|-|-|-|{\"nvidia.com/gpu\": 3}|15:00",
                "h|16:00|16:03|-|-|{\"nvidia.com/gpu\": 1}|16:05"), rows(cluster));

        // Everything sent again, in one batch: nothing changes.
        send(cluster, a1, a2, a3, b1, c1, c2, c3, d1, d2, e1, e2, f1, f2, g1, g2, h1, h2);
        assertEquals(8, rows(cluster).size());
        assertEquals("e|14:00|-|-|-|{\"nvidia.com/gpu\": 2}|14:10", rows(cluster).get(4));
    }

    @Test
    void thePendingReadTakesThePodsWaitingInTheWindowOfOneClusterOrOfEvery() {
        String cluster = "wait-" + UUID.randomUUID().toString().substring(0, 8);
        String other = cluster + "-b";
        send(cluster,
                // waited 09:00-10:00: ends exactly at the window's start, so not in it
                version("i", "1", WatchEventType.MODIFIED, "10:01", "09:00", "10:00", "Running", null, 1),
                // waited 10:00-10:04
                version("a", "2", WatchEventType.MODIFIED, "10:05", "10:00", "10:04", "Running", null, 1),
                // still waits since 10:58
                version("b", "1", WatchEventType.ADDED, "11:00", "10:58", null, "Pending", null, 2),
                // waited 12:00 until deleted at 12:15
                version("c", "1", WatchEventType.ADDED, "12:00", "12:00", null, "Pending", null, 1),
                version("c", "3", WatchEventType.DELETED, "12:20", "12:00", null, "Pending", "12:15", 1),
                // created at 12:59, failed unscheduled at 13:07: waited into the window's last minute
                version("d", "2", WatchEventType.MODIFIED, "13:07", "12:59", null, "Failed", null, 1),
                // created at the window's end: not in it
                version("e", "1", WatchEventType.ADDED, "13:00", "13:00", null, "Pending", null, 1),
                // scheduled the instant it was created: never waited
                version("j", "2", WatchEventType.MODIFIED, "10:31", "10:30", "10:30", "Running", null, 1));
        send(other, version("z", "1", WatchEventType.ADDED, "08:00", "08:00", null, "Pending", null, 8));

        assertEquals(List.of(
                cluster + "|a|10:00|10:04|{\"nvidia.com/gpu\": 1}",
                cluster + "|b|10:58|-|{\"nvidia.com/gpu\": 2}",
                cluster + "|c|12:00|12:15|{\"nvidia.com/gpu\": 1}",
                cluster + "|d|12:59|13:07|{\"nvidia.com/gpu\": 1}"), waiting(cluster, cluster));
        assertEquals(List.of(cluster + "|a|10:00|10:04|{\"nvidia.com/gpu\": 1}",
                cluster + "|b|10:58|-|{\"nvidia.com/gpu\": 2}",
                cluster + "|c|12:00|12:15|{\"nvidia.com/gpu\": 1}",
                cluster + "|d|12:59|13:07|{\"nvidia.com/gpu\": 1}",
                other + "|z|08:00|-|{\"nvidia.com/gpu\": 8}"), waiting(null, cluster));
        assertEquals(List.of(other + "|z|08:00|-|{\"nvidia.com/gpu\": 8}"), waiting(other, cluster));
    }

    @Test
    void resourcesAreWrittenAsJsonbPrintsThem() {
        // jsonb orders keys shorter first, then by bytes: "é/gp" (5 bytes) after "z/gpu" (5 bytes, 'z' < 0xC3).
        List<Map<String, Long>> maps = List.of(Map.of(), Map.of("nvidia.com/gpu", 1L),
                Map.of("nvidia.com/gpu", 2L, "nvidia.com/gpumem", 40960L, "nvidia.com/gpucores", 50L),
                Map.of("nvidia.com/mig-1g.10gb", 3L, "amd.com/gpu", -1L, "b", 0L, "a", 9_000_000_000L),
                Map.of("é/gp", 1L, "z/gpu", 2L, "q\"uote\\d\n\t\u0001", 4L));
        List<String> expected = List.of("{}", "{\"nvidia.com/gpu\": 1}",
                "{\"nvidia.com/gpu\": 2, \"nvidia.com/gpumem\": 40960, \"nvidia.com/gpucores\": 50}",
                "{\"a\": 9000000000, \"b\": 0, \"amd.com/gpu\": -1, \"nvidia.com/mig-1g.10gb\": 3}",
                "{\"z/gpu\": 2, \"é/gp\": 1, \"q\\\"uote\\\\d\\n\\t\\u0001\": 4}");
        for (int i = 0; i < maps.size(); i++) {
            String written = PodLifecycleColumns.jsonbText(maps.get(i));
            assertEquals(expected.get(i), written);
            assertEquals(written, pool.preparedQuery("SELECT $1::text::jsonb::text AS t").execute(Tuple.of(written))
                    .await().atMost(WAIT).iterator().next().getString("t"));
        }
    }

    /** The pending read over [10:00, 13:00) for {@code cluster} (null: every), of the clusters named {@code prefix...}. */
    private List<String> waiting(String cluster, String prefix) {
        List<String> out = new ArrayList<>();
        for (PendingPodsRepository.PendingPod p : pending.pending(at("10:00"), at("13:00"), cluster).await().atMost(WAIT)) {
            if (p.cluster().startsWith(prefix)) {
                out.add(String.join("|", p.cluster(), p.uid(), hhmm(p.since()), hhmm(p.until()), p.resources()));
            }
        }
        return out;
    }
}
