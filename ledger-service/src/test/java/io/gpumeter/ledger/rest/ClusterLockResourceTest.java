package io.gpumeter.ledger.rest;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.gpumeter.ledger.repository.ClusterLock;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Transaction;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The allocated ledger's lock is one cluster's: while a replay of one cluster stores a bundle (and holds that
 * cluster's lock until it commits), a watched batch of another cluster is stored and shows in Q1, and only the
 * replayed cluster's own batches wait.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class ClusterLockResourceTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @Inject
    Pool pool;

    private static String batch(String cluster, String pod) {
        return "{\"cluster\":\"" + cluster + "\",\"pods\":[{\"uid\":\"" + pod + "\",\"namespace\":\"ml\",\"name\":\"" + pod
                + "\",\"resourceVersion\":\"7\",\"type\":\"MODIFIED\",\"observedAt\":\"2026-10-01T08:00:00Z\","
                + "\"scheduledAt\":\"2026-10-01T08:00:00Z\",\"nodeName\":\"n1\",\"gpuResources\":{\"nvidia.com/gpu\":1}}]}";
    }

    @Test
    void aBatchOfOneClusterIsStoredWhileAnotherClustersReplayHoldsItsLock() throws Exception {
        SqlConnection replay = pool.getConnection().await().atMost(WAIT);
        Transaction open = replay.begin().await().atMost(WAIT);
        ClusterLock.take(replay, ClusterLock.INGEST, "replayed").await().atMost(WAIT);
        CompletableFuture<Integer> behindTheReplay = CompletableFuture.supplyAsync(() -> given()
                .contentType(ContentType.JSON).body(batch("replayed", "queued")).post("/api/v1/facts").statusCode());
        try {
            await().atMost(WAIT).until(() -> waitingForAnAdvisoryLock() == 1);

            given().contentType(ContentType.JSON).body(batch("live", "fresh")).post("/api/v1/facts")
                    .then().statusCode(200).body("accepted", equalTo(1));
            given().queryParam("at", "2026-10-01T09:00:00Z").queryParam("cluster", "live").get("/api/v1/nodes/n1/occupants")
                    .then().statusCode(200).body("pod", equalTo(List.of("fresh")));
            assertFalse(behindTheReplay.isDone(), "the replayed cluster's own batch waits for the replay's commit");
        } finally {
            open.rollback().await().atMost(WAIT);
            replay.close().await().atMost(WAIT);
        }
        assertEquals(200, behindTheReplay.get(WAIT.toSeconds(), TimeUnit.SECONDS));
        given().queryParam("at", "2026-10-01T09:00:00Z").queryParam("cluster", "replayed").get("/api/v1/nodes/n1/occupants")
                .then().statusCode(200).body("pod", equalTo(List.of("queued")));
    }

    /** Sessions waiting for an advisory lock: the replayed cluster's batch, once it reached the lock. */
    private long waitingForAnAdvisoryLock() {
        return pool.query("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND wait_event = 'advisory'")
                .execute().await().atMost(WAIT).iterator().next().getLong(0);
    }
}
