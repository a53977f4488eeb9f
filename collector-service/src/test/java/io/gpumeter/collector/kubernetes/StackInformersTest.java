package io.gpumeter.collector.kubernetes;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.DaemonSetBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.gpumeter.common.fact.StackPodFact;
import io.gpumeter.common.fact.StackWorkloadFact;
import io.gpumeter.common.fact.WatchEventType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The GPU stack's informers against the fabric8 mock API server in CRUD mode: the configured namespaces' DaemonSets
 * and Deployments are watched, and what is created, changed and deleted there becomes the components' facts; a
 * namesake in a tenant's namespace is not even watched.
 */
@EnableKubernetesMockClient(crud = true)
class StackInformersTest {

    KubernetesClient client;
    private final List<SharedIndexInformer<? extends HasMetadata>> started = new ArrayList<>();
    private final FactSink sink = new FactSink(StackTranslatorsTest.STACK);

    @AfterEach
    void stop() {
        started.forEach(SharedIndexInformer::stop);
    }

    @Test
    void theComponentsOfTheConfiguredNamespacesAreWatchedThroughTheirLife() throws InterruptedException {
        client.apps().daemonSets().inNamespace("gpu-operator").resource(StackTranslatorsTest.dcgmExporter()).create();
        DaemonSet impostor = new DaemonSetBuilder(StackTranslatorsTest.dcgmExporter()).editMetadata()
                .withNamespace("team-a").withResourceVersion(null).withUid(null).endMetadata().build();
        client.apps().daemonSets().inNamespace("team-a").resource(impostor).create();

        StackInformers.Created informers = StackInformers.create(client, 0, StackTranslatorsTest.COMPONENTS, List.of());
        // gpu-operator's DaemonSets, kube-system's Deployments; no pod informers: the pod watch covers every namespace
        assertEquals(2, informers.workloads().size());
        assertTrue(informers.pods().isEmpty());
        informers.workloads().forEach(this::start);

        client.apps().deployments().inNamespace("kube-system").resource(new DeploymentBuilder().withNewMetadata()
                .withName("hami-scheduler").endMetadata().withNewSpec().withNewTemplate().withNewSpec().addNewContainer()
                .withName("s").withImage("projecthami/hami:v2.6.1").endContainer().endSpec().endTemplate().endSpec()
                .build()).create();
        client.apps().daemonSets().inNamespace("gpu-operator").withName("nvidia-dcgm-exporter").edit(ds -> {
            ds.getSpec().getTemplate().getSpec().getContainers().get(0).setImage("nvcr.io/nvidia/k8s/dcgm-exporter:4.7.0-4.9.0-distroless");
            return ds;
        });
        client.apps().daemonSets().inNamespace("gpu-operator").withName("nvidia-dcgm-exporter").delete();

        await("the deletion").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50))
                .until(() -> workloads().stream().anyMatch(w -> w.type() == WatchEventType.DELETED));
        List<String> seen = workloads().stream().map(w -> w.type() + " " + w.namespace() + "/" + w.component() + " "
                + w.images().get(0)).distinct().toList();
        assertTrue(seen.contains("ADDED gpu-operator/dcgm-exporter nvcr.io/nvidia/k8s/dcgm-exporter:4.6.0-4.8.3-distroless"), seen.toString());
        assertTrue(seen.contains("MODIFIED gpu-operator/dcgm-exporter nvcr.io/nvidia/k8s/dcgm-exporter:4.7.0-4.9.0-distroless"), seen.toString());
        assertTrue(seen.contains("ADDED kube-system/hami-scheduler projecthami/hami:v2.6.1"), seen.toString());
        assertTrue(workloads().stream().noneMatch(w -> w.namespace().equals("team-a")));
    }

    @Test
    void stackNamespacesOutsideTheWatchedOnesGetPodInformersOfTheirOwn() throws InterruptedException {
        StackInformers.Created informers = StackInformers.create(client, 0, StackTranslatorsTest.COMPONENTS, List.of("team-a"));
        assertEquals(2, informers.pods().size(), "gpu-operator and kube-system");
        for (SharedIndexInformer<Pod> informer : informers.pods()) {
            informer.addEventHandler(handler(true));
            informer.start();
            started.add(informer);
        }
        client.pods().inNamespace("gpu-operator").resource(StackTranslatorsTest.devicePluginPod("gpu-operator")
                .editMetadata().withResourceVersion(null).endMetadata().build()).create();
        await("the device plugin's pod").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50))
                .until(() -> governance().stream().anyMatch(f -> f instanceof StackPodFact));
        StackPodFact pod = (StackPodFact) governance().stream().filter(f -> f instanceof StackPodFact).findFirst().orElseThrow();
        assertEquals(List.of("device-plugin", "gpu-a100-1", "CrashLoopBackOff"), List.of(pod.component(), pod.node(), pod.waitingReason()));
    }

    private void start(SharedIndexInformer<? extends HasMetadata> informer) {
        handle(informer);
        informer.start();
        started.add(informer);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private void handle(SharedIndexInformer<? extends HasMetadata> informer) {
        ((SharedIndexInformer) informer).addEventHandler(handler(false));
    }

    private <T extends HasMetadata> ResourceEventHandler<T> handler(boolean stackOnly) {
        return new ResourceEventHandler<>() {
            @Override
            public void onAdd(T obj) {
                record(WatchEventType.ADDED, obj, stackOnly);
            }

            @Override
            public void onUpdate(T oldObj, T newObj) {
                record(WatchEventType.MODIFIED, newObj, stackOnly);
            }

            @Override
            public void onDelete(T obj, boolean deletedFinalStateUnknown) {
                record(WatchEventType.DELETED, obj, stackOnly);
            }
        };
    }

    private void record(WatchEventType type, HasMetadata object, boolean stackOnly) {
        synchronized (sink) {
            if (stackOnly) {
                sink.acceptStackPod(type, (Pod) object, Instant.now());
            } else {
                sink.accept(type, object, Instant.now());
            }
        }
    }

    private List<Object> governance() {
        synchronized (sink) {
            return sink.governanceFacts();
        }
    }

    private List<StackWorkloadFact> workloads() {
        return governance().stream().filter(f -> f instanceof StackWorkloadFact).map(f -> (StackWorkloadFact) f).toList();
    }
}
