package io.gpumeter.collector.kubernetes;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.DaemonSetBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.gpumeter.collector.testing.GpuStackObjects;
import io.gpumeter.common.fact.StackPodFact;
import io.gpumeter.common.fact.StackWorkloadFact;
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

/**
 * The GPU stack's workloads and pods: the configured components in their own namespaces, their images as written,
 * and their pods' health per node; a tenant's namesake is never the stack's.
 */
class StackTranslatorsTest {

    static final Instant AT = Instant.parse("2026-05-01T10:00:00Z");
    static final String DCGM_IMAGE = GpuStackObjects.DCGM_IMAGE;
    static final StackComponents COMPONENTS = StackComponents.parse(Map.of(
            "dcgm-exporter", "gpu-operator/DaemonSet/nvidia-dcgm-exporter",
            "device-plugin", "gpu-operator/DaemonSet/nvidia-device-plugin-daemonset",
            "hami-scheduler", "kube-system/Deployment/hami-scheduler"));
    static final GpuStack STACK = new GpuStack(COMPONENTS, NodeStatusSettings.DEFAULT);

    static DaemonSet dcgmExporter() {
        return GpuStackObjects.dcgmExporter();
    }

    @Test
    void theOperatorsDcgmExporterIsTheComponentItsImageItsVersion() {
        StackWorkloadFact fact = StackWorkloadTranslator.translate(dcgmExporter(), WatchEventType.ADDED, AT, COMPONENTS);
        assertEquals(List.of("gpu-operator", "nvidia-dcgm-exporter", "DaemonSet", "dcgm-exporter", "ds-uid-dcgm", "41"),
                List.of(fact.namespace(), fact.name(), fact.kind(), fact.component(), fact.uid(), fact.resourceVersion()));
        assertEquals(List.of(DCGM_IMAGE), fact.images(), "the containers' images, not the init container's");
    }

    @Test
    void aDeploymentIsReadLikeADaemonSet() {
        StackWorkloadFact fact = StackWorkloadTranslator.translate(new DeploymentBuilder().withNewMetadata()
                .withNamespace("kube-system").withName("hami-scheduler").withUid("d1").withResourceVersion("7").endMetadata()
                .withNewSpec().withNewTemplate().withNewSpec()
                .addNewContainer().withName("kube-scheduler").withImage("registry.k8s.io/kube-scheduler:v1.31.1").endContainer()
                .addNewContainer().withName("vgpu-scheduler-extender").withImage("projecthami/hami:v2.6.1").endContainer()
                .endSpec().endTemplate().endSpec().build(), WatchEventType.MODIFIED, AT, COMPONENTS);
        assertEquals("hami-scheduler", fact.component());
        assertEquals("Deployment", fact.kind());
        assertEquals(List.of("registry.k8s.io/kube-scheduler:v1.31.1", "projecthami/hami:v2.6.1"), fact.images());
    }

    @Test
    void aTenantsDaemonSetNamedLikeAComponentIsNotTheStack() {
        DaemonSet impostor = new DaemonSetBuilder(dcgmExporter()).editMetadata().withNamespace("team-a").endMetadata().build();
        Skip skip = assertThrows(Skip.class,
                () -> StackWorkloadTranslator.translate(impostor, WatchEventType.ADDED, AT, COMPONENTS));
        assertEquals("DaemonSet not a configured component of the GPU stack", skip.reason());
    }

    static PodBuilder devicePluginPod(String namespace) {
        return GpuStackObjects.devicePluginPod(namespace);
    }

    @Test
    void aComponentsPodSaysWhetherItServesItsNode() {
        StackPodFact fact = StackPodTranslator.translate(devicePluginPod("gpu-operator").build(), WatchEventType.MODIFIED, AT,
                COMPONENTS);
        assertEquals("device-plugin", fact.component());
        assertEquals("gpu-a100-1", fact.node());
        assertEquals(List.of("nvcr.io/nvidia/k8s-device-plugin:v0.18.0", "nvcr.io/nvidia/k8s-device-plugin:v0.18.0"), fact.images());
        assertEquals("Running", fact.phase());
        assertFalse(fact.ready());
        assertEquals(7, fact.restarts(), "the highest restart count");
        assertEquals("CrashLoopBackOff", fact.waitingReason());
    }

    @Test
    void aDeploymentsPodIsKnownThroughItsReplicaSet() {
        Pod pod = new PodBuilder().withNewMetadata().withNamespace("kube-system").withName("hami-scheduler-5d8f9c7b6-qx2lm")
                .withUid("p2").withResourceVersion("3").addToLabels("pod-template-hash", "5d8f9c7b6").addNewOwnerReference()
                .withKind("ReplicaSet").withName("hami-scheduler-5d8f9c7b6").withController(true).endOwnerReference().endMetadata()
                .withNewSpec().withNodeName("cpu-1").addNewContainer().withName("s").withImage("projecthami/hami:v2.6.1")
                .endContainer().endSpec()
                .withNewStatus().withPhase("Running").addNewCondition().withType("Ready").withStatus("True").endCondition()
                .endStatus().build();
        StackPodFact fact = StackPodTranslator.translate(pod, WatchEventType.ADDED, AT, COMPONENTS);
        assertEquals("hami-scheduler", fact.component());
        assertTrue(fact.ready());
        assertEquals(0, fact.restarts());
        assertNull(fact.waitingReason());
    }

    @Test
    void aTenantsPodOwnedByANamesakeInItsOwnNamespaceIsNeverTheStack() {
        FactSink sink = new FactSink(STACK);
        sink.accept(WatchEventType.ADDED, devicePluginPod("team-a").build(), AT);
        assertTrue(sink.governanceFacts().isEmpty(), "no stack fact for a tenant's pod");
        assertEquals(Map.of("no GPU requested", 1), sink.skippedByReason(), "it is any tenant pod without a GPU");
    }

    @Test
    void aPodOfTheOperatorsNamespaceThatIsNoComponentsIsNotTheStack() {
        Pod validator = devicePluginPod("gpu-operator").editMetadata().editFirstOwnerReference()
                .withName("nvidia-operator-validator").endOwnerReference().endMetadata().build();
        assertNull(StackPodTranslator.translate(validator, WatchEventType.ADDED, AT, COMPONENTS));
    }

    @Test
    void aComponentsPodIsNotCountedAsSkippedForAskingNoGpu() {
        FactSink sink = new FactSink(STACK);
        sink.accept(WatchEventType.ADDED, devicePluginPod("gpu-operator").build(), AT);
        assertEquals(1, sink.governanceFacts().size());
        assertTrue(sink.governanceFacts().get(0) instanceof StackPodFact);
        assertEquals(0, sink.skippedCount());
        assertTrue(sink.all().isEmpty(), "nothing for metering");
    }

    /** Images as registries name them are kept as written; what is no image reference at all skips the object. */
    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', nullValues = "NULL", textBlock = """
            nvcr.io/nvidia/k8s/dcgm-exporter@sha256:0f3d8b6b3a2b1c4e5f60718293a4b5c6d7e8f90112233445566778899aabbccd | kept
            nvcr.io/nvidia/k8s/dcgm-exporter:latest                                                                 | kept
            nvcr.io/nvidia/gpu-operator:main-latest                                                                 | kept
            localhost:5000/dcgm-exporter:4.6.0-4.8.3-distroless@sha256:0f3d8b6b3a2b1c4e5f60718293a4b5c6d7e8f901122 | kept
            dcgm-exporter                                                                                           | kept
            ''                                                                                                      | GPU stack: a container without image in spec.template.spec.containers
            NULL                                                                                                    | GPU stack: a container without image in spec.template.spec.containers
            'nvcr.io/nvidia/k8s/dcgm exporter:4.6.0'                                                                | GPU stack: an image in spec.template.spec.containers holds blanks or control characters
            """)
    void imagesAreKeptAsWrittenUnlessTheyAreNoImage(String image, String outcome) {
        DaemonSet ds = dcgmExporter();
        ds.getSpec().getTemplate().getSpec().getContainers().get(0).setImage(image);
        FactSink sink = new FactSink(STACK);
        sink.accept(WatchEventType.MODIFIED, ds, AT);
        sink.accept(WatchEventType.MODIFIED, dcgmExporter(), AT);
        if ("kept".equals(outcome)) {
            assertEquals(List.of(image), ((StackWorkloadFact) sink.governanceFacts().get(0)).images());
            assertEquals(0, sink.skippedCount());
        } else {
            assertEquals(Map.of(outcome, 1), sink.skippedByReason());
            assertEquals(List.of(DCGM_IMAGE), ((StackWorkloadFact) sink.governanceFacts().get(0)).images(),
                    "the next version of the DaemonSet is not lost");
        }
    }

    @Test
    void anImageLongerThanAnyRegistryTakesOrWithAControlCharacterIsNoImage() {
        assertThrows(Skip.class, () -> StackImages.require("nvcr.io/" + "a".repeat(600), "f"));
        assertThrows(Skip.class, () -> StackImages.require("nvcr.io/dcgm\u0000:1", "f"));
        assertEquals("a:b", StackImages.require("a:b", "f"));
    }
}
