package io.gpumeter.ledger.governance.domain;

import io.gpumeter.common.triage.PendingReason;

import io.gpumeter.common.fact.PodGroupFact;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.gpumeter.ledger.governance.domain.Facts.cond;
import static io.gpumeter.ledger.governance.domain.Facts.podGroup;
import static io.gpumeter.ledger.governance.domain.Facts.t;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PodGroupTrailTest {

    @Test
    void thePendingFixtureIsPendingForItsGang() {
        PodGroupFact pending = podGroup("4427976", "2022-12-01T04:48:18Z", "Pending", List.of(
                cond("Unschedulable", "True", "NotEnoughResources",
                        "3/3 tasks in gang unschedulable: pod group is not ready, 3 Pending, 3 minAvailable; Pending: 3 Undetermined",
                        "2022-12-01T04:48:19Z")));
        PodGroupTrail trail = new PodGroupTrail(List.of(pending), List.of());
        assertEquals(List.of(new PodGroupTrail.Phase("Pending", t("2022-12-01T04:48:18Z"))), trail.phases());
        QueueState state = trail.state();
        assertEquals(QueueState.State.PENDING, state.state());
        assertEquals(PendingReason.GANG, state.reasonClass());
        assertEquals("NotEnoughResources", state.reason());
        assertEquals("kuberay-test-queue", state.keys().volcanoQueue());
        assertTrue(trail.episodes().isEmpty());
    }

    @Test
    void theRunningFixtureWentPendingThenRunningAtItsScheduledTime() {
        PodGroupFact running = podGroup("109074", "2020-08-11T12:28:55Z", "Running", List.of(
                cond("Unschedulable", "True", "NotEnoughResources", "1/0 tasks in gang unschedulable: pod group is not ready, 1 minAvailable.",
                        "2020-08-11T12:28:57Z"),
                cond("Scheduled", "True", "tasks in gang are ready to be scheduled", null, "2020-08-11T12:29:02Z")));
        PodGroupTrail trail = new PodGroupTrail(List.of(running), List.of());
        assertEquals(List.of(new PodGroupTrail.Phase("Pending", t("2020-08-11T12:28:55Z")),
                new PodGroupTrail.Phase("Running", t("2020-08-11T12:29:02Z"))), trail.phases());
        assertEquals(7_000L, trail.episodes().get(0).waitMillis(), "12:28:55 to 12:29:02");
        assertEquals(QueueState.State.ADMITTED, trail.state().state());
        assertEquals(List.of("created", "unschedulable", "scheduled", "phase"),
                trail.trail().stream().map(TrailEntry::step).toList());
    }

    @Test
    void versionsInOrderGiveEveryPhase() {
        List<PodGroupFact> versions = List.of(
                podGroup("3", "2026-05-01T00:00:00Z", "Running", List.of(cond("Scheduled", "True", "ready", null, "2026-05-01T00:04:00Z"))),
                podGroup("1", "2026-05-01T00:00:00Z", "Pending", List.of()),
                podGroup("4", "2026-05-01T00:00:00Z", "Completed", List.of(cond("Scheduled", "True", "ready", null, "2026-05-01T00:04:00Z"))),
                podGroup("2", "2026-05-01T00:00:00Z", "Inqueue", List.of()));
        PodGroupTrail trail = new PodGroupTrail(versions, List.of());
        assertEquals(List.of("Pending", "Inqueue", "Running", "Completed"),
                trail.phases().stream().map(PodGroupTrail.Phase::phase).toList());
        assertEquals(240_000L, trail.episodes().get(0).waitMillis());
        assertEquals(QueueState.State.FINISHED, trail.state().state());
    }
}
