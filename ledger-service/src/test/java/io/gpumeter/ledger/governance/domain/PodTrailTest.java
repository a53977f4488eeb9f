package io.gpumeter.ledger.governance.domain;

import io.gpumeter.common.triage.RootCauseClass;

import io.gpumeter.common.triage.PendingReason;

import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.common.fact.WatchEventType;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static io.gpumeter.ledger.governance.domain.Facts.SEEN;
import static io.gpumeter.ledger.governance.domain.Facts.event;
import static io.gpumeter.ledger.governance.domain.Facts.t;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PodTrailTest {

    static PodStatusFact pending(String scheduler, Map<String, Long> asks, Instant scheduledAt) {
        return new PodStatusFact("p1", "ml", "infer", "5", WatchEventType.MODIFIED, SEEN, t("2026-05-01T00:00:00Z"), scheduledAt,
                null, scheduledAt == null ? null : "gpu-1", scheduler, scheduledAt == null ? "Pending" : "Running", null, null,
                null, null, null, asks, null, List.of());
    }

    @Test
    void aHamiRequestSentToTheDefaultSchedulerIsADataPlaneCause() {
        PodTrail trail = new PodTrail(List.of(pending("default-scheduler",
                Map.of("nvidia.com/gpu", 1L, "nvidia.com/gpumem", 10240L), null)), List.of());
        QueueState state = trail.state();
        assertEquals(QueueState.State.PENDING, state.state());
        assertEquals(PendingReason.WRONG_SCHEDULER, state.reasonClass());
        assertEquals(RootCauseClass.DATA_PLANE, state.reasonClass().rootCause());
        assertTrue(state.message().contains("nvidia.com/gpumem"), state.message());
    }

    @Test
    void gpumemTogetherWithItsPercentageIsAWrongRequest() {
        PodTrail trail = new PodTrail(List.of(pending("hami-scheduler",
                Map.of("nvidia.com/gpu", 1L, "nvidia.com/gpumem", 10240L, "nvidia.com/gpumem-percentage", 50L), null)), List.of());
        assertEquals(PendingReason.GPUMEM_CONFLICT, trail.state().reasonClass());
        assertEquals(RootCauseClass.WORKLOAD, trail.state().reasonClass().rootCause());
    }

    @Test
    void failedSchedulingThenScheduledIsTheTrailAndTheWait() {
        PodTrail trail = new PodTrail(List.of(pending("default-scheduler", Map.of("nvidia.com/gpu", 1L), t("2026-05-01T00:07:30Z"))),
                List.of(event("e1", "Pod", "infer", "FailedScheduling", "Warning", "0/4 nodes are available: 4 Insufficient nvidia.com/gpu.",
                        "2026-05-01T00:00:01Z", "2026-05-01T00:06:00Z", 4)));
        assertEquals(450_000L, trail.episodes().get(0).waitMillis());
        assertEquals("default-scheduler", trail.episodes().get(0).keys().scheduler());
        assertEquals(QueueState.State.ADMITTED, trail.state().state());
        assertEquals(4, trail.state().rejections());
        List<TrailEntry> steps = trail.trail();
        assertEquals(List.of("created", "failed-scheduling", "scheduled"), steps.stream().map(TrailEntry::step).toList());
        assertEquals("insufficient-resources", steps.get(1).reasonClass());
        assertEquals("on node gpu-1", steps.get(2).message());
    }

    @Test
    void aRefusalKeptOnlyAsThePodScheduledConditionIsWhatThePodWaitsFor() {
        String message = "0/4 nodes are available: 4 Insufficient nvidia.com/gpu.";
        PodStatusFact base = pending("default-scheduler", Map.of("nvidia.com/gpu", 2L), null);
        PodStatusFact refused = new PodStatusFact(base.uid(), base.namespace(), base.name(), base.resourceVersion(),
                base.type(), base.observedAt(), base.createdAt(), null, null, null, base.schedulerName(), "Pending", null,
                null, null, null, null, base.gpuResources(), null, List.of(),
                new io.gpumeter.common.fact.NotScheduled("Unschedulable", message, t("2026-05-01T00:00:01Z")), null);
        PodTrail trail = new PodTrail(List.of(refused), List.of());
        QueueState state = trail.state();
        assertEquals(QueueState.State.PENDING, state.state());
        assertEquals(PendingReason.INSUFFICIENT_RESOURCES, state.reasonClass(), "no longer other: the condition says why");
        assertEquals("Unschedulable", state.reason());
        assertEquals(message, state.message());
        assertEquals(1, state.rejections());
        assertEquals(t("2026-05-01T00:00:01Z"), trail.refusedAt());
        assertEquals(List.of("created", "unschedulable"), trail.trail().stream().map(TrailEntry::step).toList());
        assertEquals("insufficient-resources", trail.trail().get(1).reasonClass());
    }

    @Test
    void gpuCoresOverAHundredIsAnInvalidRequest() {
        PodTrail trail = new PodTrail(List.of(pending("hami-scheduler",
                Map.of("nvidia.com/gpu", 1L, "nvidia.com/gpucores", 150L), null)), List.of());
        assertEquals(PendingReason.INVALID_REQUEST, trail.state().reasonClass());
        assertTrue(trail.state().message().contains("nvidia.com/gpucores=150"), trail.state().message());
    }
}
