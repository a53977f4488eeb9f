package io.gpumeter.ledger.governance.domain;

import io.gpumeter.common.triage.RootCauseClass;

import io.gpumeter.common.fact.LogSignalFact;
import io.gpumeter.common.fact.Owner;
import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.common.fact.WatchEventType;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static io.gpumeter.ledger.governance.domain.Facts.event;
import static io.gpumeter.ledger.governance.domain.Facts.pod;
import static io.gpumeter.ledger.governance.domain.Facts.running;
import static io.gpumeter.ledger.governance.domain.Facts.t;
import static io.gpumeter.ledger.governance.domain.Facts.terminated;
import static io.gpumeter.ledger.governance.domain.Facts.waiting;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PodIncidentsTest {

    static final Owner JOB = new Owner("Job", "train");

    @Test
    void anOomKilledContainerRecoversWhenItRunsAgain() {
        List<PodStatusFact> versions = List.of(
                pod("p1", "train-a", "10", WatchEventType.MODIFIED, "Running", null, null, JOB, running("2026-05-01T00:01:00Z"), null, 0),
                pod("p1", "train-a", "11", WatchEventType.MODIFIED, "Running", null, null, JOB, waiting("CrashLoopBackOff"),
                        terminated("OOMKilled", 137, "2026-05-01T00:01:00Z", "2026-05-01T01:00:00Z"), 1),
                pod("p1", "train-a", "12", WatchEventType.MODIFIED, "Running", null, null, JOB, running("2026-05-01T01:00:40Z"),
                        terminated("OOMKilled", 137, "2026-05-01T00:01:00Z", "2026-05-01T01:00:00Z"), 1));
        List<Incident> incidents = PodIncidents.derive(versions, List.of(), List.of(), List.of());
        assertEquals(1, incidents.size(), "CrashLoopBackOff after an OOM kill is the same failure");
        Incident oom = incidents.get(0);
        assertEquals("oom", oom.cause());
        assertEquals(RootCauseClass.WORKLOAD, oom.rootCause());
        assertEquals(t("2026-05-01T01:00:00Z"), oom.startedAt());
        assertEquals(Duration.ofSeconds(40), oom.repair());
        assertEquals("gpu-1", oom.node());
    }

    @Test
    void aCrashLoopIsOneIncidentUntilARunDoesNotFail() {
        List<PodStatusFact> versions = List.of(
                pod("p2", "serve", "20", WatchEventType.MODIFIED, "Running", null, null, JOB, waiting("CrashLoopBackOff"),
                        terminated("Error", 1, "2026-05-01T00:00:30Z", "2026-05-01T00:00:40Z"), 1),
                pod("p2", "serve", "21", WatchEventType.MODIFIED, "Running", null, null, JOB, waiting("CrashLoopBackOff"),
                        terminated("Error", 1, "2026-05-01T00:01:00Z", "2026-05-01T00:01:05Z"), 2),
                pod("p2", "serve", "22", WatchEventType.MODIFIED, "Running", null, null, JOB, running("2026-05-01T00:05:00Z"),
                        terminated("Error", 1, "2026-05-01T00:01:00Z", "2026-05-01T00:01:05Z"), 3));
        List<Incident> incidents = PodIncidents.derive(versions, List.of(), List.of(), List.of());
        assertEquals(1, incidents.size());
        assertEquals("crash-loop", incidents.get(0).cause());
        assertEquals(t("2026-05-01T00:00:40Z"), incidents.get(0).startedAt());
        assertEquals(2, incidents.get(0).occurrences());
        assertEquals(t("2026-05-01T00:05:00Z"), incidents.get(0).recoveredAt(), "the runs at 00:00:30 and 00:01:00 failed");
    }

    @Test
    void anImagePullFailureStartsWhenThePodStoppedBeingReadyAndEndsWithTheRun() {
        List<PodStatusFact> versions = List.of(
                pod("p3", "infer", "30", WatchEventType.MODIFIED, "Pending", null, "2026-05-01T00:00:12Z", JOB, waiting("ImagePullBackOff"), null, 0),
                pod("p3", "infer", "31", WatchEventType.MODIFIED, "Running", null, "2026-05-01T00:20:00Z", JOB, running("2026-05-01T00:19:55Z"), null, 0));
        Incident pull = PodIncidents.derive(versions, List.of(), List.of(), List.of()).get(0);
        assertEquals("image-pull", pull.cause());
        assertEquals(t("2026-05-01T00:00:12Z"), pull.startedAt());
        assertEquals(t("2026-05-01T00:19:55Z"), pull.recoveredAt());
    }

    @Test
    void aTopologyRejectedPodIsRecoveredByItsReplacement() {
        List<PodStatusFact> rejected = List.of(
                pod("p4", "train-b", "40", WatchEventType.MODIFIED, "Failed", "TopologyAffinityError", null, JOB, null, null, 0));
        List<Incident> incidents = PodIncidents.derive(rejected, List.of(event("e9", "Pod", "train-b", "TopologyAffinityError",
                        "Warning", "Resources cannot be allocated with Topology locality", "2026-05-01T00:00:11Z",
                        "2026-05-01T00:00:11Z", 1)), List.of(),
                List.of(t("2026-04-30T23:00:00Z"), t("2026-05-01T00:03:11Z")));
        assertEquals(1, incidents.size(), "the status reason and its event are one failure");
        Incident topology = incidents.get(0);
        assertEquals("topology-affinity", topology.cause());
        assertEquals(RootCauseClass.DATA_PLANE, topology.rootCause());
        assertEquals(t("2026-05-01T00:00:11Z"), topology.startedAt());
        assertEquals(Duration.ofMinutes(3), topology.repair(), "the replacement that started before the failure does not count");
    }

    @Test
    void aFailedPodWithoutReplacementEndsUnrecoveredAndIsNotOpen() {
        List<PodStatusFact> versions = List.of(
                pod("p5", "job-x", "50", WatchEventType.MODIFIED, "Running", null, null, null, running("2026-05-01T00:00:20Z"), null, 0),
                pod("p5", "job-x", "51", WatchEventType.DELETED, "Failed", null, null, null,
                        terminated("OOMKilled", 137, "2026-05-01T00:00:20Z", "2026-05-01T02:00:00Z"), null, 0));
        Incident oom = PodIncidents.derive(versions, List.of(), List.of(), List.of()).get(0);
        assertNull(oom.recoveredAt());
        assertEquals(t("2026-05-01T06:00:00Z"), oom.endedAt());
        assertTrue(!oom.open());
    }

    @Test
    void pushedLogSignalsAreFailuresOfTheirContainer() {
        List<PodStatusFact> versions = List.of(
                pod("p6", "llm", "60", WatchEventType.MODIFIED, "Running", null, null, JOB, running("2026-05-01T00:00:20Z"), null, 0),
                pod("p6", "llm", "61", WatchEventType.MODIFIED, "Running", null, null, JOB, running("2026-05-01T03:00:00Z"),
                        terminated("Error", 1, "2026-05-01T00:00:20Z", "2026-05-01T02:59:00Z"), 1));
        List<Incident> incidents = PodIncidents.derive(versions, List.of(), List.of(
                new LogSignalFact("ml", "llm", "main", t("2026-05-01T02:58:00Z"), "cuda-oom", "CUDA out of memory"),
                new LogSignalFact("ml", "llm", "main", t("2026-05-01T04:00:00Z"), "nccl-hang", "Watchdog caught collective operation timeout")),
                List.of());
        assertEquals(List.of("cuda-oom", "nccl-hang"), incidents.stream().map(Incident::cause).toList());
        assertEquals(Duration.ofMinutes(2), incidents.get(0).repair());
        assertTrue(incidents.get(1).open());
    }
}
