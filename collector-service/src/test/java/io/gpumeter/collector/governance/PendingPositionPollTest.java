package io.gpumeter.collector.governance;

import io.gpumeter.collector.testing.LedgerStandIn;
import io.gpumeter.common.testing.Management;
import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.APIGroupBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import io.quarkus.test.kubernetes.client.KubernetesTestServer;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static org.awaitility.Awaitility.await;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The visibility API read against the mock API server: ClusterQueue cq-gpu is served only at v1beta1 (v1beta2 is a
 * 404, as on Kueue before 0.14) and answers the documented summary; cq-cpu is served at v1beta2 with one readable
 * item and one without a name; cq-none, a queue the visibility API does not know, is a 404 at both versions; cq-huge
 * answers more than the configured limit.
 */
@QuarkusTest
@TestProfile(PendingPositionPollTest.Watching.class)
@WithKubernetesTestServer(crud = true, setup = PendingPositionPollTest.ServesKueueVisibility.class)
@WithTestResource(LedgerStandIn.class)
class PendingPositionPollTest {

    static final CustomResourceDefinitionContext CLUSTER_QUEUES = new CustomResourceDefinitionContext.Builder()
            .withGroup("kueue.x-k8s.io").withVersion("v1beta1").withKind("ClusterQueue").withPlural("clusterqueues")
            .withScope("Cluster").build();
    static final String VISIBILITY = "/apis/visibility.kueue.x-k8s.io/";
    static final Instant READ = Instant.parse("2026-06-01T12:00:00Z");

    /** The watch on, the timed read off: the test reads once, at a known instant. */
    public static class Watching implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("gpumeter.collector.watch.enabled", "true", "gpumeter.collector.delivery.flush-interval", "200ms",
                    "gpumeter.collector.cluster", "live-q", "gpumeter.collector.kueue.pending-interval", "off",
                    "gpumeter.collector.kueue.max-body", "64K");
        }
    }

    /** Kueue v1beta1 kinds are served; the visibility API answers per ClusterQueue as described above. */
    public static class ServesKueueVisibility implements Consumer<KubernetesServer> {
        @Override
        public void accept(KubernetesServer server) {
            server.expect().get().withPath("/apis/kueue.x-k8s.io").andReturn(200, new APIGroupBuilder()
                    .withName("kueue.x-k8s.io").addNewVersion().withGroupVersion("kueue.x-k8s.io/v1beta1").withVersion("v1beta1")
                    .endVersion().build()).always();
            server.getKubernetesMockServer().expectCustomResource(CLUSTER_QUEUES);
            for (String[] kind : new String[][]{{"Workload", "workloads", "Namespaced"}, {"LocalQueue", "localqueues", "Namespaced"},
                    {"ResourceFlavor", "resourceflavors", "Cluster"}}) {
                server.getKubernetesMockServer().expectCustomResource(new CustomResourceDefinitionContext.Builder()
                        .withGroup("kueue.x-k8s.io").withVersion("v1beta1").withKind(kind[0]).withPlural(kind[1])
                        .withScope(kind[2]).build());
            }
            String fixture;
            try {
                fixture = PendingWorkloadsTest.fixture();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            for (String cq : List.of("cq-gpu", "cq-none")) {
                server.expect().get().withPath(VISIBILITY + "v1beta2/clusterqueues/" + cq + "/pendingworkloads")
                        .andReturn(404, "{\"kind\":\"Status\",\"code\":404}").always();
            }
            server.expect().get().withPath(VISIBILITY + "v1beta1/clusterqueues/cq-none/pendingworkloads")
                    .andReturn(404, "{\"kind\":\"Status\",\"code\":404}").always();
            server.expect().get().withPath(VISIBILITY + "v1beta1/clusterqueues/cq-gpu/pendingworkloads")
                    .andReturn(200, fixture.replace("visibility.kueue.x-k8s.io/v1beta2", "visibility.kueue.x-k8s.io/v1beta1")).always();
            // cq-huge answers more than the 64 KiB the test allows: refused, counted, the other queues still read
            server.expect().get().withPath(VISIBILITY + "v1beta2/clusterqueues/cq-huge/pendingworkloads")
                    .andReturn(200, "{\"kind\":\"PendingWorkloadsSummary\",\"items\":[" + "{},".repeat(40_000) + "{}]}")
                    .always();
            server.expect().get().withPath(VISIBILITY + "v1beta2/clusterqueues/cq-cpu/pendingworkloads")
                    .andReturn(200, """
                            {"kind":"PendingWorkloadsSummary","apiVersion":"visibility.kueue.x-k8s.io/v1beta2","metadata":{},"items":[
                              {"metadata":{"name":"cpu-job-1","namespace":"batch"},"priority":10,"localQueueName":"lq-cpu",
                               "positionInClusterQueue":0,"positionInLocalQueue":0},
                              {"metadata":{"namespace":"batch"},"positionInClusterQueue":1,"positionInLocalQueue":1}]}""").always();
        }
    }

    @KubernetesTestServer
    KubernetesServer server;

    @Inject
    PendingPositionPolls polls;

    @Inject
    MeterRegistry metrics;

    @Test
    void positionsOfTheSeenClusterQueuesReachTheGovernanceIntake() throws InterruptedException {
        await("the watch to start").atMost(Duration.ofSeconds(30))
                .until(() -> "watching".equals(Management.given().get("/q/health/ready").jsonPath()
                .getString("checks.find { it.name == 'kubernetes-watch' }.data.state")));
        for (String cq : List.of("cq-gpu", "cq-cpu", "cq-none", "cq-huge")) {
            GenericKubernetesResource queue = Serialization.unmarshal("""
                    {"apiVersion":"kueue.x-k8s.io/v1beta1","kind":"ClusterQueue","metadata":{"name":"%s","uid":"uid-%s"},
                     "spec":{"namespaceSelector":{}}}""".formatted(cq, cq), GenericKubernetesResource.class);
            server.getClient().genericKubernetesResources(CLUSTER_QUEUES).resource(queue).create();
        }
        await("the four ClusterQueues to be seen").atMost(Duration.ofSeconds(30))
                .until(() -> LedgerStandIn.governance("queueObjects").stream()
                .filter(q -> "CLUSTER_QUEUE".equals(q.path("kind").asText())).count() == 4);

        assertEquals(4, polls.poll(READ), "3 of cq-gpu, 1 of cq-cpu, none of cq-none, none of the over-size cq-huge");
        assertEquals(1.0, metrics.find("gpumeter.collector.scrape.refused").tag("source", "kueue").counter().count());

        await("the positions to arrive").atMost(Duration.ofSeconds(30))
                .until(() -> LedgerStandIn.governance("pendingPositions").size() == 4);
        List<JsonNode> positions = LedgerStandIn.governance("pendingPositions");
        JsonNode cpu = positions.stream().filter(p -> "cq-cpu".equals(p.path("clusterQueue").asText())).findFirst().orElseThrow();
        assertEquals("batch", cpu.path("namespace").asText());
        assertEquals("cpu-job-1", cpu.path("workload").asText());
        assertEquals("lq-cpu", cpu.path("localQueue").asText());
        assertEquals(10, cpu.path("priority").asInt());
        assertEquals(0, cpu.path("positionInClusterQueue").asInt());
        assertEquals(READ, Instant.parse(cpu.path("observedAt").asText()));
        List<String> gpu = positions.stream().filter(p -> "cq-gpu".equals(p.path("clusterQueue").asText()))
                .map(p -> p.path("workload").asText() + "@" + p.path("positionInClusterQueue").asInt()).toList();
        assertEquals(List.of("job-sample-job-jrjfr-8d56e@0", "job-sample-job-jg9dw-5f1a3@1", "job-sample-job-t9b8m-4e770@2"), gpu);
        assertEquals("live-q", LedgerStandIn.governance().get(LedgerStandIn.governance().size() - 1)
                .path("cluster").asText());

        // A deleted ClusterQueue is no longer read.
        server.getClient().genericKubernetesResources(CLUSTER_QUEUES).withName("cq-cpu").delete();
        await("the deletion to be seen").atMost(Duration.ofSeconds(30))
                .until(() -> LedgerStandIn.governance("queueObjects").stream()
                .anyMatch(q -> "DELETED".equals(q.path("type").asText())));
        assertEquals(3, polls.poll(READ.plusSeconds(60)));
    }
}
