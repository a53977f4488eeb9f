package io.gpumeter.alert.rest;

import io.gpumeter.alert.service.EvaluationService;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Replicas evaluate the rules as often as one instance would. The decision rests on the shared database alone, so two
 * scheduled evaluations in one period here are what two replicas' schedules firing in that period do: the second
 * is skipped, nothing is enqueued for Alertmanager twice; an evaluation asked for always runs; a replica that finds
 * another one evaluating (the evaluation lock held on another connection) skips as well.
 */
@QuarkusTest
@TestProfile(RuleEvaluationResourceTest.StoppedAlertmanager.class)
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(FakeLedger.class)
@WithTestResource(RuleEvaluationResourceTest.ClosedPort.class)
class ScheduledEvaluationTest {

    private static final Duration MINUTE = Duration.ofMinutes(1);

    @Inject
    EvaluationService evaluation;
    @Inject
    Pool pool;
    @Inject
    MeterRegistry registry;

    @Test
    void aPeriodIsEvaluatedOnceWhicheverReplicaComesFirst() {
        FakeLedger.reset();
        RuleEvaluationResourceTest.troubled();
        double skipped = outcome("already-evaluated");

        assertTrue(evaluation.evaluate().await().atMost(Duration.ofSeconds(30)).isPresent(), "asked for, it always runs");
        long enqueued = enqueuedVersions();
        assertTrue(enqueued > 0, "the troubled fleet fires alerts for Alertmanager");

        assertFalse(evaluation.evaluateOnSchedule(MINUTE).await().atMost(Duration.ofSeconds(30)).isPresent(),
                "a replica's schedule in a period already evaluated skips");
        assertEquals(enqueued, enqueuedVersions(), "nothing is posted twice for one period");
        assertEquals(skipped + 1, outcome("already-evaluated"));

        // a period of 6 s: 3.2 s on, the newest evaluation is more than half a period old; the one run then is
        // less than 3 s old at the next schedule unless that evaluation alone took 3 s
        TestClock.CLOCK.advance(Duration.ofMillis(3_200));
        Duration period = Duration.ofSeconds(6);
        assertTrue(evaluation.evaluateOnSchedule(period).await().atMost(Duration.ofSeconds(30)).isPresent(),
                "the newest evaluation is more than half a period old: the next period's first schedule runs");
        long next = enqueuedVersions();
        assertTrue(next > enqueued, "and enqueues the firing alerts again");
        assertFalse(evaluation.evaluateOnSchedule(period).await().atMost(Duration.ofSeconds(30)).isPresent(),
                "the other replica's schedule in that period skips");
        assertEquals(next, enqueuedVersions());
        assertTrue(evaluation.evaluateOnSchedule(Duration.ZERO).await().atMost(Duration.ofSeconds(30)).isPresent(),
                "with no period to share, every schedule runs");
    }

    @Test
    void aReplicaThatFindsAnotherEvaluatingSkips() {
        FakeLedger.reset();
        RuleEvaluationResourceTest.troubled();
        double before = outcome("another-replica");
        SqlConnection other = pool.getConnection().await().atMost(Duration.ofSeconds(10));
        try {
            other.preparedQuery("SELECT pg_advisory_lock(hashtext($1))").execute(Tuple.of("gpumeter.alert.evaluation"))
                    .await().atMost(Duration.ofSeconds(10));
            assertFalse(evaluation.evaluateOnSchedule(Duration.ZERO).await().atMost(Duration.ofSeconds(30)).isPresent());
            assertEquals(before + 1, outcome("another-replica"));
            other.preparedQuery("SELECT pg_advisory_unlock(hashtext($1))").execute(Tuple.of("gpumeter.alert.evaluation"))
                    .await().atMost(Duration.ofSeconds(10));
        } finally {
            other.closeAndAwait();
        }
        assertTrue(evaluation.evaluateOnSchedule(Duration.ZERO).await().atMost(Duration.ofSeconds(30)).isPresent(),
                "once the other replica is done, the next schedule runs");
    }

    /** The newest version any alert was enqueued with: it grows by one for each alert each evaluation enqueues. */
    private long enqueuedVersions() {
        return pool.query("SELECT coalesce(max(version), 0) AS v FROM alert.outbox").execute()
                .await().atMost(Duration.ofSeconds(10)).iterator().next().getLong("v");
    }

    private double outcome(String outcome) {
        Counter counter = registry.find("gpumeter.alert.evaluations").tag("outcome", outcome).counter();
        return counter == null ? 0 : counter.count();
    }
}
