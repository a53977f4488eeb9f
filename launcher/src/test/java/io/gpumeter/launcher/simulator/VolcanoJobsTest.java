package io.gpumeter.launcher.simulator;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The history's Volcano Jobs: how each went, and their pods as Volcano's job controller makes them. */
class VolcanoJobsTest {

    static final Instant END = Instant.parse("2026-11-30T04:43:00Z");

    static SimVolcanoJob job(Plan plan, String name) {
        return plan.volcanoJobs().stream().filter(j -> j.name().equals(name)).findFirst().orElseThrow();
    }

    static List<SimPod> pods(Plan plan, SimVolcanoJob job) {
        return job.podUids().stream().map(uid -> plan.pod(uid).orElseThrow()).toList();
    }

    /** Whatever the day the history ends, two jobs complete, one fails after its retries and one waits. */
    @ParameterizedTest
    @ValueSource(strings = {"2026-11-30T04:43:00Z", "2026-12-08T09:13:00Z", "2027-01-20T00:00:00Z", "2026-10-03T10:00:00Z"})
    void twoJobsCompleteOneFailsAfterItsRetriesAndOneWaits(String end) {
        for (long seed : new long[] {42, 7}) {
            Plan plan = new FleetSimulator(seed, Instant.parse(end)).plan();
            assertEquals(List.of("resnet-sweep", "vit-finetune", "detr-train", "sam-large"),
                    plan.volcanoJobs().stream().map(SimVolcanoJob::name).toList());
            assertEquals(Set.of("vision"), plan.volcanoJobs().stream().map(SimVolcanoJob::queue).collect(Collectors.toSet()));
            assertEquals("Completed", job(plan, "resnet-sweep").state());
            assertEquals("Completed", job(plan, "vit-finetune").state());
            SimVolcanoJob failed = job(plan, "detr-train");
            assertEquals("Failed", failed.state());
            assertEquals(3, failed.retries());
            SimVolcanoJob waits = job(plan, "sam-large");
            assertEquals(List.of("Pending"), waits.phases().stream().map(SimVolcanoJob.Phase::phase).toList());
            assertTrue(waits.podUids().isEmpty(), "a gang the queue cannot hold gets no pods");
            assertTrue(waits.workers() * waits.cardsPerWorker() > SimVolcanoJob.QUEUE_GPUS);
            for (SimVolcanoJob j : plan.volcanoJobs()) {
                // each of its pods held its whole cards from its binding to its end, before the end of the history
                for (SimPod p : pods(plan, j)) {
                    assertEquals(j.cardsPerWorker(), p.grants().size(), p.name());
                    assertTrue(p.releasedAt() != null && !p.scheduledAt().isBefore(j.createdAt()), p.name());
                    assertEquals(GpuPool.WHOLE_CARD, p.pool());
                }
            }
            noCardHeldTwice(plan);
        }
    }

    @Test
    void aJobRunsWhenItsGangStartsAndCompletesASecondAfterItsLastWorker() {
        Plan plan = new FleetSimulator(42, END).plan();
        SimVolcanoJob job = job(plan, "resnet-sweep");
        List<SimPod> pods = pods(plan, job);
        assertEquals(List.of("resnet-sweep-worker-0", "resnet-sweep-worker-1"), pods.stream().map(SimPod::name).toList());
        assertEquals(List.of("Pending", "Running", "Completed"), job.phases().stream().map(SimVolcanoJob.Phase::phase).toList());
        assertEquals(job.createdAt(), job.phases().get(0).at());
        assertEquals(pods.stream().map(SimPod::startedAt).max(Comparator.naturalOrder()).orElseThrow(), job.runningAt());
        assertEquals(pods.stream().map(SimPod::finishedAt).max(Comparator.naturalOrder()).orElseThrow().plusSeconds(1),
                job.last().at());
        assertEquals(0, job.retries());
        pods.forEach(p -> assertEquals(0, p.exitCode()));
    }

    @Test
    void aFailingJobIsRestartedWithNewPodsOfTheSameNameUntilItsRetriesAreSpent() {
        Plan plan = new FleetSimulator(42, END).plan();
        SimVolcanoJob job = job(plan, "detr-train");
        assertEquals(List.of("Pending:0", "Running:0", "Restarting:1", "Pending:1", "Running:1", "Restarting:2", "Pending:2",
                        "Running:2", "Restarting:3", "Failed:3"),
                job.phases().stream().map(p -> p.phase() + ":" + p.retryCount()).toList());
        List<SimPod> pods = pods(plan, job);
        assertEquals(3, pods.size());
        assertEquals(Set.of("detr-train-worker-0"), pods.stream().map(SimPod::name).collect(Collectors.toSet()));
        assertEquals(3, pods.stream().map(SimPod::uid).distinct().count());
        for (int i = 0; i < pods.size(); i++) {
            SimPod p = pods.get(i);
            assertEquals(1, p.exitCode());
            // the restart deletes the failed pod before its successor is made
            assertTrue(p.deletedAt() != null, p.uid());
            if (i > 0) {
                assertTrue(pods.get(i - 1).deletedAt().isBefore(p.createdAt()), p.uid());
            }
        }
        // it restarts a second after its pod failed, and fails for good at the third
        assertEquals(pods.get(0).finishedAt().plusSeconds(1), job.phases().get(2).at());
        assertEquals(pods.get(2).finishedAt().plusSeconds(2), job.last().at());
        assertNull(job(plan, "sam-large").runningAt());
    }

    @Test
    void itsPodsCarryWhatVolcanosJobControllerWrites() {
        Plan plan = new FleetSimulator(42, END).plan();
        SimVolcanoJob job = job(plan, "vit-finetune");
        Pod pod = plan.eventsOfKind("Pod").map(e -> (Pod) e.object())
                .filter(p -> p.getMetadata().getUid().equals(job.podUids().get(0))).findFirst().orElseThrow();
        OwnerReference owner = pod.getMetadata().getOwnerReferences().get(0);
        assertEquals(List.of("batch.volcano.sh/v1alpha1", "Job", "vit-finetune", job.uid(), true),
                List.of(owner.getApiVersion(), owner.getKind(), owner.getName(), owner.getUid(), owner.getController()));
        Map<String, String> labels = pod.getMetadata().getLabels();
        assertEquals("vit-finetune", labels.get("volcano.sh/job-name"));
        assertEquals("acme-training", labels.get("volcano.sh/job-namespace"));
        assertEquals("vision", labels.get("volcano.sh/queue-name"));
        assertEquals("worker", labels.get("volcano.sh/task-spec"));
        assertTrue(!labels.containsKey("job-name") && !labels.containsKey("batch.kubernetes.io/job-name"), labels.toString());
        assertEquals(job.podGroup(), pod.getMetadata().getAnnotations().get("scheduling.k8s.io/group-name"));
        assertEquals("vit-finetune-" + job.uid(), job.podGroup());
        assertEquals("volcano", pod.getSpec().getSchedulerName());
        assertEquals("vit-finetune-worker-0", pod.getMetadata().getName());
        assertNull(pod.getMetadata().getGenerateName());
    }

    /** No whole card is held by two pods at once, the Volcano Jobs' included. */
    static void noCardHeldTwice(Plan plan) {
        List<SimPod> whole = plan.pods().stream().filter(p -> p.pool() == GpuPool.WHOLE_CARD && p.scheduledAt() != null).toList();
        for (SimPod p : whole) {
            if (!plan.volcanoJobs().stream().anyMatch(j -> j.podUids().contains(p.uid()))) {
                continue;
            }
            for (Grant g : p.grants()) {
                List<SimPod> holders = whole.stream().filter(o -> o.holdsAt(g.gpuUuid(), p.scheduledAt())).toList();
                assertEquals(List.of(p.uid()), holders.stream().map(SimPod::uid).toList(), g.gpuUuid() + " at " + p.scheduledAt());
            }
        }
    }
}
