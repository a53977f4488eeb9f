package io.gpumeter.collector.rest;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.APIGroupBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.gpumeter.collector.testing.LedgerStandIn;
import io.gpumeter.common.testing.Management;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import io.quarkus.test.kubernetes.client.KubernetesTestServer;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The live path for Dynamic Resource Allocation, against the fabric8 mock API server in CRUD mode serving
 * resource.k8s.io/v1: a DeviceClass, a ResourceSlice, a ResourceClaim and the pod using it, created there, reach
 * the ledger, and the claim's allocation status written later arrives as a new version.
 */
@QuarkusTest
@TestProfile(DraLiveWatchTest.Watching.class)
@WithKubernetesTestServer(crud = true, setup = DraLiveWatchTest.ServesDra.class)
@WithTestResource(LedgerStandIn.class)
class DraLiveWatchTest {

    /** Turns the watch on, with a fast flush. */
    public static class Watching implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("gpumeter.collector.watch.enabled", "true", "gpumeter.collector.delivery.flush-interval", "200ms",
                    "gpumeter.collector.cluster", "live-dra");
        }
    }

    /** resource.k8s.io/v1 is served: discovery, and CRUD of its three kinds with their scopes. */
    public static class ServesDra implements Consumer<KubernetesServer> {
        @Override
        public void accept(KubernetesServer server) {
            server.expect().get().withPath("/apis/resource.k8s.io").andReturn(200, new APIGroupBuilder()
                    .withName("resource.k8s.io").addNewVersion().withGroupVersion("resource.k8s.io/v1").withVersion("v1")
                    .endVersion().build()).always();
            for (String[] kind : new String[][]{{"ResourceClaim", "resourceclaims", "Namespaced"},
                    {"ResourceSlice", "resourceslices", "Cluster"}, {"DeviceClass", "deviceclasses", "Cluster"}}) {
                server.getKubernetesMockServer().expectCustomResource(new CustomResourceDefinitionContext.Builder()
                        .withGroup("resource.k8s.io").withVersion("v1").withKind(kind[0]).withPlural(kind[1])
                        .withScope(kind[2]).build());
            }
        }
    }

    @KubernetesTestServer
    KubernetesServer server;

    @Test
    void claimsSlicesClassesAndClaimPodsFlowToTheLedger() throws InterruptedException {
        await("the watch to start").atMost(Duration.ofSeconds(30))
                .until(() -> "watching".equals(Management.given().get("/q/health/ready").jsonPath()
                .getString("checks.find { it.name == 'kubernetes-watch' }.data.state")));
        KubernetesClient client = server.getClient();
        client.resources(DeviceClass.class).resource(Serialization.unmarshal("""
                {"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass","metadata":{"name":"gpu.nvidia.com"},
                 "spec":{"selectors":[{"cel":{"expression":"device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'gpu'"}}]}}""",
                DeviceClass.class)).create();
        client.resources(ResourceSlice.class).resource(Serialization.unmarshal("""
                {"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":"n1-gpu.nvidia.com-abcde"},
                 "spec":{"driver":"gpu.nvidia.com","nodeName":"n1","pool":{"name":"n1","generation":1,"resourceSliceCount":1},
                  "devices":[{"name":"gpu-0","attributes":{"type":{"string":"gpu"},"uuid":{"string":"GPU-L0"},
                   "productName":{"string":"NVIDIA H100 80GB HBM3"}},"capacity":{"memory":{"value":"80Gi"}}}]}}""",
                ResourceSlice.class)).create();
        ResourceClaim claim = Serialization.unmarshal("""
                {"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"name":"train-gpu","namespace":"ml","uid":"claim-1"},
                 "spec":{"devices":{"requests":[{"name":"gpu","exactly":{"deviceClassName":"gpu.nvidia.com"}}]}}}""",
                ResourceClaim.class);
        client.resources(ResourceClaim.class).inNamespace("ml").resource(claim).create();
        client.pods().inNamespace("ml").resource(Serialization.unmarshal("""
                {"apiVersion":"v1","kind":"Pod","metadata":{"name":"train","namespace":"ml","uid":"pod-train"},
                 "spec":{"nodeName":"n1","containers":[{"name":"a","resources":{"claims":[{"name":"gpu"}]}}],
                  "resourceClaims":[{"name":"gpu","resourceClaimName":"train-gpu"}]}}""", Pod.class)).create();
        // The scheduler's write: the allocation and the reservation for the pod.
        client.resources(ResourceClaim.class).inNamespace("ml").withName("train-gpu").edit(c -> {
            c.setStatus(Serialization.unmarshal("""
                    {"allocation":{"devices":{"results":[{"request":"gpu","driver":"gpu.nvidia.com","pool":"n1","device":"gpu-0"}]}},
                     "reservedFor":[{"resource":"pods","name":"train","uid":"pod-train"}]}""",
                    io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimStatus.class));
            return c;
        });

        await("the allocated claim").atMost(Duration.ofSeconds(30))
                .until(() -> claims().anyMatch(c -> c.path("allocated").asBoolean()));
        JsonNode allocated = claims().filter(c -> c.path("allocated").asBoolean()).findFirst().orElseThrow();
        assertEquals("gpu-0", allocated.path("results").get(0).path("device").asText());
        assertEquals("pod-train", allocated.path("reservedFor").get(0).path("uid").asText());
        assertTrue(claims().anyMatch(c -> !c.path("allocated").asBoolean()), "the unallocated version came first");
        await("the slice and the class").atMost(Duration.ofSeconds(30))
                .until(() -> batches("resourceSlices").findAny().isPresent() && batches("deviceClasses").findAny().isPresent());
        assertEquals("GPU-L0", batches("resourceSlices").findFirst().orElseThrow().path("devices").get(0)
                .path("attributes").path("uuid").asText());
        await("the claim's pod").atMost(Duration.ofSeconds(30))
                .until(() -> LedgerStandIn.pods().stream().anyMatch(p -> "train".equals(p.path("name").asText())));
        JsonNode pod = LedgerStandIn.pods().stream().filter(p -> "train".equals(p.path("name").asText())).findFirst().orElseThrow();
        assertEquals("train-gpu", pod.path("claims").get(0).path("claimName").asText());
        assertTrue(LedgerStandIn.metering().stream().allMatch(b -> "live-dra".equals(b.path("cluster").asText())));
    }

    private static Stream<JsonNode> batches(String field) {
        return List.copyOf(LedgerStandIn.metering()).stream().flatMap(b -> b.path(field).valueStream());
    }

    private static Stream<JsonNode> claims() {
        return batches("resourceClaims");
    }
}
