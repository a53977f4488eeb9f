package io.gpumeter.collector.governance;

import io.fabric8.kubernetes.api.model.APIGroupBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Which Kueue and Volcano kinds are watched: groups the server answers it does not know (404) are not, a served group
 * is watched at the preferred version both sides know, and a discovery that fails rather than answers (a 503) is
 * thrown, so that the watch's start is tried again instead of leaving Kueue unwatched until a restart.
 */
@EnableKubernetesMockClient
class GovernanceInformersTest {

    KubernetesMockServer server;
    KubernetesClient client;

    @Test
    void groupsTheServerDoesNotKnowAreNotWatched() {
        server.expect().get().withPath("/apis/kueue.x-k8s.io").andReturn(404, "{}").always();
        server.expect().get().withPath("/apis/scheduling.volcano.sh").andReturn(404, "{}").always();
        server.expect().get().withPath("/apis/batch.volcano.sh").andReturn(404, "{}").always();
        assertEquals(1, GovernanceInformers.create(client, 0, List.of()).size(), "Events alone");
    }

    @Test
    void aServedGroupIsWatchedAtThePreferredVersionBothSidesKnow() {
        server.expect().get().withPath("/apis/kueue.x-k8s.io").andReturn(200, new APIGroupBuilder()
                .withName("kueue.x-k8s.io")
                .addNewVersion().withGroupVersion("kueue.x-k8s.io/v1beta1").withVersion("v1beta1").endVersion()
                .addNewVersion().withGroupVersion("kueue.x-k8s.io/v1beta2").withVersion("v1beta2").endVersion()
                .addNewVersion().withGroupVersion("kueue.x-k8s.io/v1alpha9").withVersion("v1alpha9").endVersion()
                .build()).always();
        server.expect().get().withPath("/apis/scheduling.volcano.sh").andReturn(404, "{}").always();
        server.expect().get().withPath("/apis/batch.volcano.sh").andReturn(404, "{}").always();
        assertEquals("v1beta2", GovernanceInformers.servedVersion(client, GovernanceKinds.WORKLOAD));
        assertNull(GovernanceInformers.servedVersion(client, GovernanceKinds.POD_GROUP));
        // Events, and Kueue's four kinds
        assertEquals(5, GovernanceInformers.create(client, 0, List.of()).size());
    }

    @Test
    void aFailedDiscoveryIsThrownNotTakenForAnAbsentGroup() {
        server.expect().get().withPath("/apis/kueue.x-k8s.io").andReturn(503, "{}").always();
        assertThrows(KubernetesClientException.class, () -> GovernanceInformers.create(client, 0, List.of()));
    }
}
