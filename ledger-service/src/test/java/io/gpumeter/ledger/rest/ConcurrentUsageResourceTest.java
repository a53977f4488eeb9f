package io.gpumeter.ledger.rest;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.gpumeter.ledger.repository.ClusterLock;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Transaction;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.gpumeter.ledger.rest.UsageResourceTest.partial;
import static io.gpumeter.ledger.rest.UsageResourceTest.partials;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Deliveries of one cluster add their minute rollups side by side: only the books that depend on order wait for the
 * cluster's ingest lock, and a second sent twice at once still counts once. The minutes are recent ones, which the
 * minute retention is not folding (a day it may be folding is written under the lock, as before).
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class ConcurrentUsageResourceTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @Inject
    Pool pool;

    /** A recent whole minute, on a day the minute retention keeps. */
    private static final Instant MINUTE = Instant.now().minus(Duration.ofMinutes(10)).truncatedTo(ChronoUnit.MINUTES);

    @Test
    void twoDeliveriesOfOneClusterWriteTheirMinutesWhileAThirdHoldsTheClusterLock() throws Exception {
        SqlConnection holder = pool.getConnection().await().atMost(WAIT);
        Transaction open = holder.begin().await().atMost(WAIT);
        ClusterLock.take(holder, ClusterLock.INGEST, "side").await().atMost(WAIT);
        CompletableFuture<JsonPath> first = post(partials("side", partial("GPU-S1", MINUTE.toString(), "0,10000", "0.25,0.75", null)));
        CompletableFuture<JsonPath> second = post(partials("side", partial("GPU-S2", MINUTE.toString(), "0,10000,20000", "0.5,0.5,1.0", null)));
        try {
            // Both reach the ingest lock having already written their minutes (a row lock on the day's partition);
            // before, the second waited at the lock with nothing written, behind the first.
            await().atMost(WAIT).until(() -> waitingAtTheLockWithMinutesWritten() == 2);
            assertFalse(first.isDone() || second.isDone(), "both wait for the lock the holder keeps");
        } finally {
            open.rollback().await().atMost(WAIT);
            holder.close().await().atMost(WAIT);
        }
        assertEquals(2, first.get(WAIT.toSeconds(), TimeUnit.SECONDS).getInt("accepted"));
        assertEquals(3, second.get(WAIT.toSeconds(), TimeUnit.SECONDS).getInt("accepted"));
        // S1: (0.25 + 0.75) / 2 = 0.5, max 0.75; S2: (0.5 + 0.5 + 1.0) / 3 = 0.6666..., max 1.0.
        expectMinute("GPU-S1", 0.5f, 0.75f, 2);
        expectMinute("GPU-S2", (float) (2.0 / 3), 1.0f, 3);
    }

    @Test
    void theSameValuesDeliveredTwiceAtOnceCountOnce() throws Exception {
        // D1 holds second 50 (0.5) already; a transaction locks its row, so both deliveries read it before either
        // writes and then queue at it with the same seconds worked out as new.
        given().contentType(ContentType.JSON).body(partials("twice", partial("GPU-D1", MINUTE.toString(), "50000", "0.5", null)))
                .post("/api/v1/usage").then().statusCode(200).body("accepted", equalTo(1));
        String body = partials("twice",
                partial("GPU-D1", MINUTE.toString(), "0,10000,20000", "0.25,0.75,1.0", null),
                partial("GPU-D2", MINUTE.toString(), "5000,15000", "0.25,0.75", null));
        SqlConnection holder = pool.getConnection().await().atMost(WAIT);
        Transaction open = holder.begin().await().atMost(WAIT);
        holder.preparedQuery("SELECT 1 FROM ledger.usage_minute WHERE cluster = 'twice' AND gpu_uuid = 'GPU-D1' AND minute = $1 FOR UPDATE")
                .execute(Tuple.of(OffsetDateTime.ofInstant(MINUTE, ZoneOffset.UTC))).await().atMost(WAIT);
        CompletableFuture<JsonPath> one = post(body);
        CompletableFuture<JsonPath> other = post(body);
        try {
            await().atMost(WAIT).until(() -> waitingForARow() == 2);
        } finally {
            open.commit().await().atMost(WAIT);
            holder.close().await().atMost(WAIT);
        }
        JsonPath a = one.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        JsonPath b = other.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        // Five values new once: whichever got the row first took them, the other found all five held.
        assertEquals(List.of(0, 5), List.of(a.getInt("accepted"), b.getInt("accepted")).stream().sorted().toList());
        assertEquals(5, a.getInt("duplicates") + b.getInt("duplicates"));
        // D1: 0.5 + 0.25 + 0.75 + 1.0 = 2.5 over 4 seconds = 0.625, max 1.0 (twice counted: 4.5 over 7).
        expectMinute("GPU-D1", 0.625f, 1.0f, 4);
        // D2, a row neither found: (0.25 + 0.75) / 2 = 0.5, max 0.75.
        expectMinute("GPU-D2", 0.5f, 0.75f, 2);
    }

    @Test
    void aDeliveryOfManyRowsIsStoredOnce() {
        // 300 rows: the rows offered and the rows written are compared as counts, whatever their size.
        String[] rows = new String[300];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = partial("GPU-M" + i, MINUTE.toString(), "0,30000", "0.25,0.75", null);
        }
        given().contentType(ContentType.JSON).body(partials("many", rows)).post("/api/v1/usage").then().statusCode(200)
                .body("accepted", equalTo(600)).body("duplicates", equalTo(0));
        // Each card: (0.25 + 0.75) / 2 = 0.5, max 0.75.
        expectMinute("GPU-M299", 0.5f, 0.75f, 2);
    }

    private static CompletableFuture<JsonPath> post(String body) {
        return CompletableFuture.supplyAsync(() -> given().contentType(ContentType.JSON).body(body).post("/api/v1/usage")
                .then().statusCode(200).extract().jsonPath());
    }

    private static void expectMinute(String gpu, float mean, float max, int samples) {
        given().queryParam("from", MINUTE.toString()).queryParam("to", MINUTE.plus(Duration.ofMinutes(1)).toString())
                .queryParam("field", "SM_ACTIVE").get("/api/v1/gpus/" + gpu + "/usage").then().statusCode(200)
                .body("$", hasSize(1)).body("[0].minute", equalTo(MINUTE.toString())).body("[0].mean", equalTo(mean))
                .body("[0].max", equalTo(max)).body("[0].samples", equalTo(samples));
    }

    /** Sessions waiting for an advisory lock while holding a write lock on a minute partition. */
    private long waitingAtTheLockWithMinutesWritten() {
        return count("""
                SELECT count(DISTINCT a.pid) FROM pg_stat_activity a
                JOIN pg_locks l ON l.pid = a.pid AND l.granted AND l.mode = 'RowExclusiveLock'
                JOIN pg_class c ON c.oid = l.relation AND c.relname LIKE 'usage_minute_p%'
                WHERE a.wait_event_type = 'Lock' AND a.wait_event = 'advisory'""");
    }

    /** Sessions waiting for a row another transaction holds. */
    private long waitingForARow() {
        return count("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND wait_event IN ('transactionid', 'tuple')");
    }

    private long count(String sql) {
        return pool.query(sql).execute().await().atMost(WAIT).iterator().next().getLong(0);
    }
}
