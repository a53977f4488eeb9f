package io.gpumeter.ledger.governance.domain;

import io.gpumeter.common.triage.RootCauseClass;

import io.gpumeter.common.triage.PendingReason;

import io.gpumeter.common.fact.AdmissionCheckState;
import io.gpumeter.common.fact.WorkloadFact;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.gpumeter.ledger.governance.domain.Facts.cond;
import static io.gpumeter.ledger.governance.domain.Facts.event;
import static io.gpumeter.ledger.governance.domain.Facts.t;
import static io.gpumeter.ledger.governance.domain.Facts.workload;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WorkloadTrailTest {

    /** The admitted fixture: created 00:39:00, QuotaReserved and Admitted 03:03:26. */
    static WorkloadFact admitted() {
        return workload("w1", "88120455", "2025-03-14T00:39:00Z", "gpu-research", true, List.of(
                cond("QuotaReserved", "True", "QuotaReserved", "Quota reserved in ClusterQueue gpu-research", "2025-03-14T03:03:26Z"),
                cond("Admitted", "True", "Admitted", "The workload is admitted", "2025-03-14T03:03:26Z")), List.of());
    }

    @Test
    void theFixtureWaitIsTwoHoursTwentyFourMinutesTwentySixSeconds() {
        WorkloadTrail trail = new WorkloadTrail(List.of(admitted()), List.of());
        List<WaitEpisode> waits = trail.episodes();
        assertEquals(1, waits.size());
        // 2 h 24 min 26 s = 7200 + 1440 + 26 = 8666 s.
        assertEquals(8_666_000L, waits.get(0).waitMillis());
        assertEquals(t("2025-03-14T00:39:00Z"), waits.get(0).waitFrom());
        assertEquals(t("2025-03-14T03:03:26Z"), waits.get(0).admittedAt());
        assertFalse(waits.get(0).requeued());
        assertEquals("gpu-research", waits.get(0).keys().clusterQueue());
        assertEquals(QueueState.State.ADMITTED, trail.state().state());
    }

    @Test
    void evictedByAdmissionCheckIsInactiveWithTheCheckAsReason() {
        WorkloadFact w = workload("w2", "5521904", "2025-06-02T09:10:00Z", "ml-platform", false, List.of(
                cond("QuotaReserved", "True", "QuotaReserved", "Quota reserved in ClusterQueue ml-platform", "2025-06-02T09:11:05Z"),
                cond("PodsReady", "False", "PodsReady", "Not all pods are ready or succeeded", "2025-06-02T09:11:05Z"),
                cond("Evicted", "True", "DeactivatedDueToAdmissionCheck",
                        "The workload is deactivated due to Admission check(s): [capacity-check], were rejected", "2025-06-02T09:12:41Z")),
                List.of(new AdmissionCheckState("capacity-check", "Pending", "Reset to Pending after eviction. Previously: Rejected",
                        t("2025-06-02T09:12:41Z"))));
        WorkloadTrail trail = new WorkloadTrail(List.of(w), List.of());
        QueueState state = trail.state();
        assertEquals(QueueState.State.INACTIVE, state.state());
        assertEquals(PendingReason.ADMISSION_CHECK, state.reasonClass());
        assertEquals(RootCauseClass.CONTROL_PLANE, state.reasonClass().rootCause());
        assertEquals("DeactivatedDueToAdmissionCheck", state.reason());
        assertEquals(t("2025-06-02T09:12:41Z"), state.waitingSince());
        assertTrue(trail.episodes().isEmpty(), "quota was reserved but the workload was never admitted: no wait sample");
        TrailEntry evicted = trail.trail().stream().filter(e -> e.step().equals("evicted")).findFirst().orElseThrow();
        assertEquals("admission-check", evicted.reasonClass());
        assertTrue(trail.trail().stream().anyMatch(e -> e.step().equals("admission-check") && "capacity-check".equals(e.reason())));
    }

    @Test
    void aRequeuedWorkloadWaitsFromItsLastEvictionAndEveryAdmissionCounts() {
        // v1: refused for quota; v2: admitted at 00:10; v3: preempted 01:00, back to pending; v4: admitted again at 01:30.
        WorkloadFact refused = workload("w3", "10", "2026-05-01T00:00:00Z", null, true, List.of(
                cond("QuotaReserved", "False", "Pending",
                        "couldn't assign flavors to pod set main: insufficient unused quota for nvidia.com/gpu in flavor a100-80g, 2 more needed",
                        "2026-05-01T00:00:01Z")), List.of());
        WorkloadFact first = workload("w3", "11", "2026-05-01T00:00:00Z", "gpu-research", true, List.of(
                cond("QuotaReserved", "True", "QuotaReserved", "Quota reserved", "2026-05-01T00:10:00Z"),
                cond("Admitted", "True", "Admitted", "admitted", "2026-05-01T00:10:00Z")), List.of());
        WorkloadFact preempted = workload("w3", "12", "2026-05-01T00:00:00Z", null, true, List.of(
                cond("QuotaReserved", "False", "Preempted", "Preempted to accommodate a workload (UID: 5f1e-77) due to prioritization in the ClusterQueue",
                        "2026-05-01T01:00:00Z"),
                cond("Evicted", "True", "Preempted", "Preempted to accommodate a workload (UID: 5f1e-77) due to prioritization in the ClusterQueue",
                        "2026-05-01T01:00:00Z"),
                cond("Requeued", "True", "Preempted", "requeued", "2026-05-01T01:00:00Z")), List.of());
        WorkloadFact second = workload("w3", "13", "2026-05-01T00:00:00Z", "gpu-research", true, List.of(
                cond("QuotaReserved", "True", "QuotaReserved", "Quota reserved", "2026-05-01T01:30:00Z"),
                cond("Admitted", "True", "Admitted", "admitted", "2026-05-01T01:30:00Z"),
                cond("Requeued", "True", "Preempted", "requeued", "2026-05-01T01:00:00Z")), List.of());
        // Out of order on purpose: resourceVersions order them.
        WorkloadTrail trail = new WorkloadTrail(List.of(second, refused, preempted, first), List.of());
        List<WaitEpisode> waits = trail.episodes();
        assertEquals(2, waits.size());
        assertEquals(600_000L, waits.get(0).waitMillis());
        assertFalse(waits.get(0).requeued());
        assertEquals(1_800_000L, waits.get(1).waitMillis(), "waits from the eviction at 01:00, not from creation");
        assertTrue(waits.get(1).requeued());
        QueueState state = trail.state();
        assertEquals(QueueState.State.ADMITTED, state.state());
        assertEquals(2, state.rejections(), "the quota refusal and the preemption");
        assertEquals(2, state.admissions());
        TrailEntry pending = trail.trail().stream().filter(e -> e.step().equals("pending")).findFirst().orElseThrow();
        assertEquals("quota", pending.reasonClass());
        TrailEntry evicted = trail.trail().stream().filter(e -> e.step().equals("evicted")).findFirst().orElseThrow();
        assertEquals("preempted by workload UID 5f1e-77", evicted.detail());
    }

    @Test
    void onlyTheLatestVersionOfARequeuedWorkloadStillWaitsFromTheRequeue() {
        WorkloadFact onlyLatest = workload("w4", "13", "2026-05-01T00:00:00Z", "gpu-research", true, List.of(
                cond("QuotaReserved", "True", "QuotaReserved", "Quota reserved", "2026-05-01T01:30:00Z"),
                cond("Admitted", "True", "Admitted", "admitted", "2026-05-01T01:30:05Z"),
                cond("Requeued", "True", "Preempted", "requeued", "2026-05-01T01:00:00Z")), List.of());
        WaitEpisode wait = new WorkloadTrail(List.of(onlyLatest), List.of()).episodes().get(0);
        assertEquals(1_800_000L, wait.waitMillis());
        assertEquals(t("2026-05-01T01:30:05Z"), wait.admittedAt());
    }

    @Test
    void aPendingWorkloadTakesItsReasonFromTheNewestRefusal() {
        WorkloadFact pending = workload("w5", "20", "2026-05-01T00:00:00Z", null, true, List.of(), List.of());
        WorkloadTrail trail = new WorkloadTrail(List.of(pending), List.of(
                event("e1", "Workload", "wl-w5", "Pending", "Normal",
                        "couldn't assign flavors to pod set main: insufficient quota for nvidia.com/gpu in flavor a100-80g, request > maximum capacity (8 > 4)",
                        "2026-05-01T00:00:02Z", "2026-05-01T00:00:02Z", 1)));
        QueueState state = trail.state();
        assertEquals(QueueState.State.PENDING, state.state());
        assertEquals(PendingReason.QUOTA, state.reasonClass());
        assertEquals(t("2026-05-01T00:00:00Z"), state.waitingSince());
        assertEquals(1, state.rejections());
        assertEquals("research-queue", state.keys().localQueue());
    }
}
