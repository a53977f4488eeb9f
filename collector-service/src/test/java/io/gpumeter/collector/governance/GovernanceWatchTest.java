package io.gpumeter.collector.governance;

import io.gpumeter.collector.testing.LedgerStandIn;
import io.gpumeter.common.testing.Management;
import io.fabric8.kubernetes.api.model.APIGroupBuilder;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import io.quarkus.test.kubernetes.client.KubernetesTestServer;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.function.Consumer;

import static org.awaitility.Awaitility.await;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The live path for governance kinds against the CRUD mock API server: a cluster that serves Kueue (but not
 * Volcano) gets Workload informers beside the Event informer, and what they see reaches the governance intake.
 */
@QuarkusTest
@TestProfile(GovernanceWatchTest.Watching.class)
@WithKubernetesTestServer(crud = true, setup = GovernanceWatchTest.ServesKueue.class)
@WithTestResource(LedgerStandIn.class)
class GovernanceWatchTest {

    static final CustomResourceDefinitionContext WORKLOADS = new CustomResourceDefinitionContext.Builder()
            .withGroup("kueue.x-k8s.io").withVersion("v1beta1").withKind("Workload").withPlural("workloads")
            .withScope("Namespaced").build();

    /** Turns the watch on, with a fast flush. */
    public static class Watching implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("gpumeter.collector.watch.enabled", "true", "gpumeter.collector.delivery.flush-interval", "200ms",
                    "gpumeter.collector.cluster", "live-2");
        }
    }

    /** Kueue v1beta1 is served (discovery and CRUD of its kinds); Volcano is not installed. */
    public static class ServesKueue implements Consumer<KubernetesServer> {
        @Override
        public void accept(KubernetesServer server) {
            server.expect().get().withPath("/apis/kueue.x-k8s.io").andReturn(200, new APIGroupBuilder()
                    .withName("kueue.x-k8s.io").addNewVersion().withGroupVersion("kueue.x-k8s.io/v1beta1").withVersion("v1beta1")
                    .endVersion().build()).always();
            server.getKubernetesMockServer().expectCustomResource(WORKLOADS);
            for (String[] kind : new String[][]{{"ClusterQueue", "clusterqueues", "Cluster"}, {"LocalQueue", "localqueues", "Namespaced"},
                    {"ResourceFlavor", "resourceflavors", "Cluster"}}) {
                server.getKubernetesMockServer().expectCustomResource(new CustomResourceDefinitionContext.Builder()
                        .withGroup("kueue.x-k8s.io").withVersion("v1beta1").withKind(kind[0]).withPlural(kind[1])
                        .withScope(kind[2]).build());
            }
        }
    }

    @KubernetesTestServer
    KubernetesServer server;

    @Test
    void workloadsAndEventsFlowToTheGovernanceIntake() throws InterruptedException {
        await("the watch to start").atMost(Duration.ofSeconds(30))
                .until(() -> "watching".equals(Management.given().get("/q/health/ready").jsonPath()
                .getString("checks.find { it.name == 'kubernetes-watch' }.data.state")));
        KubernetesClient client = server.getClient();
        GenericKubernetesResource workload = Serialization.unmarshal("""
                {"apiVersion":"kueue.x-k8s.io/v1beta1","kind":"Workload","metadata":{"name":"job-train","namespace":"ml",
                 "uid":"wl-1","creationTimestamp":"2026-05-01T00:00:00Z"},"spec":{"queueName":"research-queue"}}""",
                GenericKubernetesResource.class);
        client.genericKubernetesResources(WORKLOADS).inNamespace("ml").resource(workload).create();
        client.v1().events().inNamespace("ml").resource(new EventBuilder().withNewMetadata().withName("train.1").withNamespace("ml")
                .endMetadata().withNewInvolvedObject().withKind("Pod").withNamespace("ml").withName("train").withUid("p1")
                .endInvolvedObject().withReason("FailedScheduling").withType("Warning")
                .withMessage("0/1 nodes are available: 1 Insufficient nvidia.com/gpu.")
                .withFirstTimestamp("2026-05-01T00:00:05Z").withLastTimestamp("2026-05-01T00:00:05Z").withCount(1).build()).create();

        await("the workload and the event to arrive").atMost(Duration.ofSeconds(30))
                .until(() -> !LedgerStandIn.governance("workloads").isEmpty()
                && !LedgerStandIn.governance("events").isEmpty());
        assertEquals("research-queue", LedgerStandIn.governance("workloads").get(0).path("queueName").asText());
        assertEquals("FailedScheduling", LedgerStandIn.governance("events").get(0).path("reason").asText());
        assertEquals("live-2", LedgerStandIn.governance().get(0).path("cluster").asText());
        Management.given().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
    }
}
