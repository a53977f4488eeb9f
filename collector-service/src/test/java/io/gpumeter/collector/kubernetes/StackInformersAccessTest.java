package io.gpumeter.collector.kubernetes;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.apps.DaemonSetListBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentListBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A namespace whose Role is missing (403) is left out of the GPU stack's watch, the others kept; any other failure
 * (a 503) fails the start, which the live watch then tries again.
 */
@EnableKubernetesMockClient
class StackInformersAccessTest {

    KubernetesMockServer server;
    KubernetesClient client;

    private void gpuOperatorAnswers(int status) {
        server.expect().get().withPath("/apis/apps/v1/namespaces/gpu-operator/daemonsets?limit=1")
                .andReturn(status, status == 200 ? new DaemonSetListBuilder().build()
                        : new StatusBuilder().withCode(status).withMessage("daemonsets.apps is forbidden").build()).always();
    }

    private void kubeSystemReadable() {
        server.expect().get().withPath("/apis/apps/v1/namespaces/kube-system/deployments?limit=1")
                .andReturn(200, new DeploymentListBuilder().build()).always();
    }

    @Test
    void aForbiddenNamespaceIsLeftOutAndTheOthersWatched() {
        gpuOperatorAnswers(403);
        kubeSystemReadable();
        assertEquals(1, StackInformers.create(client, 0, StackTranslatorsTest.COMPONENTS, List.of()).workloads().size(),
                "kube-system's Deployments, not gpu-operator's DaemonSets");
    }

    @Test
    void anotherFailureFailsTheStart() {
        gpuOperatorAnswers(503);
        kubeSystemReadable();
        try (KubernetesClient once = new KubernetesClientBuilder().withConfig(new ConfigBuilder(client.getConfiguration())
                .withRequestRetryBackoffLimit(0).build()).build()) {
            assertThrows(KubernetesClientException.class,
                    () -> StackInformers.create(once, 0, StackTranslatorsTest.COMPONENTS, List.of()));
        }
    }

    @Test
    void noComponentNoInformer() {
        StackInformers.Created none = StackInformers.create(client, 0, StackComponents.NONE, List.of("team-a"));
        assertEquals(0, none.workloads().size() + none.pods().size());
    }
}
