package io.gpumeter.collector.kubernetes;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.gpumeter.common.fact.Owner;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.common.fact.VgpuGrant;
import io.gpumeter.common.fact.WatchEventType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PodTranslatorTest {

    static final Instant NOW = Instant.parse("2026-06-01T00:00:00Z");

    /** A HAMi-placed training worker, written after the shape of a real PyTorchJob pod on an A800. */
    static final String HAMI_WORKER = """
            kind: Pod
            apiVersion: v1
            metadata:
              name: bert-worker-0
              namespace: research
              uid: 0b7e6f3e-4c1a-4d0e-9a51-2f1d9c1b7a10
              resourceVersion: '812345'
              creationTimestamp: '2026-05-18T10:43:36Z'
              labels: {gpumeter.io/team: nlp}
              annotations:
                hami.io/bind-phase: success
                hami.io/vgpu-devices-allocated: GPU-5c2a11d0-1b3e-4f7a-9d21-6a0c55e1b2f3,NVIDIA,1024,20:;
                hami.io/vgpu-devices-to-allocate: ;
                hami.io/vgpu-node: a800-node-1
              ownerReferences:
              - {apiVersion: kubeflow.org/v1, kind: PyTorchJob, name: bert, uid: x, controller: true}
            spec:
              schedulerName: hami-scheduler
              nodeName: a800-node-1
              containers:
              - name: pytorch
                image: pytorch/pytorch
                resources:
                  limits: {nvidia.com/gpu: '1', nvidia.com/gpumem: '1024', nvidia.com/gpucores: '20'}
                  requests: {nvidia.com/gpu: '1', nvidia.com/gpumem: '1024', nvidia.com/gpucores: '20'}
            status:
              phase: Succeeded
              conditions:
              - {type: PodScheduled, status: 'True', lastTransitionTime: '2026-05-18T10:43:37Z'}
              containerStatuses:
              - name: pytorch
                state:
                  terminated: {exitCode: 0, reason: Completed, startedAt: '2026-05-18T10:43:40Z', finishedAt: '2026-05-18T10:49:07Z'}
            """;

    static Pod pod(String yaml) {
        return Serialization.unmarshal(yaml, Pod.class);
    }

    @Test
    void hamiWorkerBecomesAFactWithItsDevicesAndLifecycle() {
        PodFact fact = PodTranslator.translate(pod(HAMI_WORKER), WatchEventType.MODIFIED, NOW);
        assertEquals("0b7e6f3e-4c1a-4d0e-9a51-2f1d9c1b7a10", fact.uid());
        assertEquals("812345", fact.resourceVersion());
        assertEquals(Instant.parse("2026-05-18T10:43:37Z"), fact.scheduledAt());
        assertTrue(fact.allTerminated());
        assertEquals(Instant.parse("2026-05-18T10:49:07Z"), fact.lastFinishedAt());
        assertEquals("a800-node-1", fact.nodeName());
        assertEquals(new Owner("PyTorchJob", "bert", "kubeflow.org/v1"), fact.owner());
        assertEquals(List.of(new VgpuGrant(0, "GPU-5c2a11d0-1b3e-4f7a-9d21-6a0c55e1b2f3", "NVIDIA", 1024, 20)), fact.vgpus());
        assertEquals(Map.of("nvidia.com/gpu", 1L, "nvidia.com/gpumem", 1024L, "nvidia.com/gpucores", 20L), fact.gpuResources());
        assertEquals("nlp", fact.labels().get("gpumeter.io/team"));
        assertEquals(NOW, fact.observedAt());
        // what the ledger sets the grant against: HAMi's word that the binding is done, and on which node
        assertEquals("success", fact.hamiBindPhase());
        assertEquals("a800-node-1", fact.hamiNode());
    }

    @Test
    void replicaSetOwnerIsReportedAsItsDeployment() {
        String yaml = """
                kind: Pod
                metadata:
                  name: chat-7d9f8b6c4-x2x9q
                  namespace: serving
                  uid: u-1
                  resourceVersion: '5'
                  labels: {pod-template-hash: 7d9f8b6c4}
                  ownerReferences:
                  - {apiVersion: apps/v1, kind: ReplicaSet, name: chat-7d9f8b6c4, controller: true}
                spec:
                  containers:
                  - name: vllm
                    resources: {limits: {nvidia.com/gpu: '2'}}
                """;
        PodFact fact = PodTranslator.translate(pod(yaml), WatchEventType.ADDED, NOW);
        assertEquals(new Owner("Deployment", "chat", "apps/v1"), fact.owner());
        assertNull(fact.scheduledAt());
        assertFalse(fact.allTerminated());
        assertNull(fact.hamiBindPhase());
        assertNull(fact.hamiNode());
    }

    @Test
    void theOwnersApiVersionTellsAVolcanoJobFromABatchJob() {
        String volcano = """
                kind: Pod
                metadata:
                  name: mpi-worker-0
                  namespace: hpc
                  uid: u-v
                  resourceVersion: '7'
                  ownerReferences:
                  - {apiVersion: batch.volcano.sh/v1alpha1, kind: Job, name: mpi, uid: j1, controller: true}
                spec:
                  schedulerName: volcano
                  containers:
                  - {name: w, resources: {limits: {nvidia.com/gpu: '1'}}}
                """;
        String batch = volcano.replace("batch.volcano.sh/v1alpha1", "batch/v1");
        assertEquals(new Owner("Job", "mpi", "batch.volcano.sh/v1alpha1"),
                PodTranslator.translate(pod(volcano), WatchEventType.ADDED, NOW).owner());
        assertEquals(new Owner("Job", "mpi", "batch/v1"), PodTranslator.translate(pod(batch), WatchEventType.ADDED, NOW).owner());
    }

    @Test
    void initContainersCountOnlyWhenTheyAskForMoreThanTheAppContainersTogether() {
        String yaml = """
                kind: Pod
                metadata: {name: p, namespace: n, uid: u, resourceVersion: '1'}
                spec:
                  initContainers:
                  - {name: warm, resources: {limits: {nvidia.com/gpu: '3'}}}
                  - {name: mig, resources: {limits: {nvidia.com/mig-1g.10gb: '1'}}}
                  containers:
                  - {name: a, resources: {limits: {nvidia.com/gpu: '1'}}}
                  - {name: b, resources: {requests: {nvidia.com/gpu: '1'}, limits: {cpu: '2'}}}
                  - {name: c, resources: {limits: {nvidia.com/mig-1g.10gb: '2', memory: 1Gi}}}
                """;
        PodFact fact = PodTranslator.translate(pod(yaml), WatchEventType.ADDED, NOW);
        assertEquals(Map.of("nvidia.com/gpu", 3L, "nvidia.com/mig-1g.10gb", 2L), fact.gpuResources());
    }

    @Test
    void oneRunningContainerMeansNotAllTerminated() {
        String yaml = """
                kind: Pod
                metadata: {name: p, namespace: n, uid: u, resourceVersion: '1'}
                spec:
                  containers:
                  - {name: a, resources: {limits: {nvidia.com/gpu: '1'}}}
                  - {name: b}
                status:
                  containerStatuses:
                  - {name: a, state: {terminated: {exitCode: 0, finishedAt: '2026-05-18T10:00:00Z'}}}
                  - {name: b, state: {running: {startedAt: '2026-05-18T09:00:00Z'}}}
                """;
        assertFalse(PodTranslator.translate(pod(yaml), WatchEventType.MODIFIED, NOW).allTerminated());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "no GPU at all | {name: p, namespace: n, uid: u, resourceVersion: '1'} | {containers: [{name: a, resources: {limits: {cpu: '1'}}}]} | no GPU requested",
            "no uid | {name: p, namespace: n, resourceVersion: '1'} | {containers: [{name: a, resources: {limits: {nvidia.com/gpu: '1'}}}]} | no metadata.uid",
            "no namespace | {name: p, uid: u, resourceVersion: '1'} | {containers: [{name: a, resources: {limits: {nvidia.com/gpu: '1'}}}]} | no metadata.namespace",
            "no resourceVersion | {name: p, namespace: n, uid: u} | {containers: [{name: a, resources: {limits: {nvidia.com/gpu: '1'}}}]} | no metadata.resourceVersion",
            "garbled HAMi annotation | {name: p, namespace: n, uid: u, resourceVersion: '1', annotations: {hami.io/vgpu-devices-allocated: 'GPU-1,NVIDIA,lots,20:'}} | {containers: [{name: a}]} | invalid hami.io/vgpu-devices-allocated annotation",
            "bad creation time | {name: p, namespace: n, uid: u, resourceVersion: '1', creationTimestamp: 'yesterday'} | {containers: [{name: a, resources: {limits: {nvidia.com/gpu: '1'}}}]} | bad timestamp in metadata.creationTimestamp",
    })
    void podsThatMakeNoSenseAreSkippedWithAReason(String name, String metadata, String spec, String reason) {
        Pod pod = pod("kind: Pod\nmetadata: " + metadata + "\nspec: " + spec + "\n");
        Skip skip = assertThrows(Skip.class, () -> PodTranslator.translate(pod, WatchEventType.ADDED, NOW));
        assertEquals(reason, skip.reason());
    }

    private static Pod askingForGpus(String amount) {
        return pod("kind: Pod\nmetadata: {name: p, namespace: n, uid: u, resourceVersion: '1'}\n"
                + "spec: {containers: [{name: a, resources: {limits: {nvidia.com/gpu: '" + amount + "'}}}]}\n");
    }

    /** Every spelling of an amount reads as Kubernetes' quantity arithmetic reads it, whole numbers only. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "1                   | 1",
            "007                 | 7",
            "1024                | 1024",
            "999999999999999999  | 999999999999999999",
            "9223372036854775807 | 9223372036854775807",
            "2k                  | 2000",
            "1Ki                 | 1024",
            "1e3                 | 1000",
            "1.9                 | 1",
            "1500m               | 1",
            "+4                  | 4",
    })
    void gpuAmountsAreReadAsKubernetesReadsQuantities(String amount, long expected) {
        Pod pod = askingForGpus(amount);
        assertEquals(Map.of("nvidia.com/gpu", expected),
                PodTranslator.translate(pod, WatchEventType.ADDED, NOW).gpuResources());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "-1   | negative quantity for nvidia.com/gpu",
            "0    | no GPU requested",
            "' 3' | bad quantity for nvidia.com/gpu",
            "lots | bad quantity for nvidia.com/gpu",
            "1x   | bad quantity for nvidia.com/gpu",
    })
    void gpuAmountsThatAreNoQuantitySkipThePod(String amount, String reason) {
        Pod pod = askingForGpus(amount);
        Skip skip = assertThrows(Skip.class, () -> PodTranslator.translate(pod, WatchEventType.ADDED, NOW));
        assertEquals(reason, skip.reason());
    }
}
