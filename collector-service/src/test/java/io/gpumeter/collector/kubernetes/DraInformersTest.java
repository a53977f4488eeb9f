package io.gpumeter.collector.kubernetes;

import io.fabric8.kubernetes.api.model.APIGroupBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Whether the DRA informers are made: a cluster that answers that it does not serve resource.k8s.io gets none, one
 * that serves resource.k8s.io/v1 gets three, and a discovery that fails rather than answers (here a 503) is thrown,
 * so that the watch's start is tried again instead of leaving ResourceClaims unwatched.
 */
@EnableKubernetesMockClient
class DraInformersTest {

    KubernetesMockServer server;
    KubernetesClient client;

    @Test
    void aGroupTheServerDoesNotKnowIsNotWatched() {
        server.expect().get().withPath("/apis/resource.k8s.io").andReturn(404, "{}").always();
        assertTrue(DraInformers.create(client, 0, List.of()).isEmpty());
    }

    @Test
    void theServedGroupGetsItsThreeInformers() {
        server.expect().get().withPath("/apis/resource.k8s.io").andReturn(200, new APIGroupBuilder()
                .withName("resource.k8s.io").addNewVersion().withGroupVersion("resource.k8s.io/v1").withVersion("v1")
                .endVersion().build()).always();
        assertEquals(3, DraInformers.create(client, 0, List.of()).size());
    }

    @Test
    void aFailedDiscoveryIsThrownNotTakenForAnAbsentGroup() {
        server.expect().get().withPath("/apis/resource.k8s.io").andReturn(503, "{}").always();
        assertThrows(KubernetesClientException.class, () -> DraInformers.create(client, 0, List.of()));
    }
}
