package io.gpumeter.launcher.simulator;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.gpumeter.launcher.kube.SimulatedApiServer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The DRA node pool of the simulated fleet, in the shapes NVIDIA's DRA driver and the scheduler leave. */
class DraPoolTest {

    static final Instant END = Instant.parse("2026-11-30T04:43:00Z");
    static Plan plan;

    @BeforeAll
    static void simulate() {
        plan = new FleetSimulator(42, END).plan();
    }

    static <T> List<T> last(Class<T> type) {
        Map<String, T> byName = new java.util.LinkedHashMap<>();
        plan.events().stream().filter(e -> type.isInstance(e.object()))
                .forEach(e -> byName.put(e.object().getMetadata().getNamespace() + "/" + e.object().getMetadata().getName(),
                        type.cast(e.object())));
        return List.copyOf(byName.values());
    }

    @Test
    void theNodeAdvertisesNoGpuResourceAndItsSliceDescribesEveryCardAndMigDevice() {
        Node node = last(Node.class).stream().filter(n -> n.getMetadata().getName().equals(DraPool.NODE)).findFirst().orElseThrow();
        assertNull(node.getStatus().getCapacity().get("nvidia.com/gpu"));
        assertFalse(node.getMetadata().getLabels().containsKey("nvidia.com/gpu.count"));

        SimNode sim = plan.nodes().stream().filter(n -> n.pool() == GpuPool.DRA).findFirst().orElseThrow();
        ResourceSlice slice = last(ResourceSlice.class).get(0);
        assertEquals("gpu.nvidia.com", slice.getSpec().getDriver());
        assertEquals(DraPool.NODE, slice.getSpec().getNodeName());
        assertEquals(DraPool.NODE, slice.getSpec().getPool().getName());
        Map<String, Device> devices = slice.getSpec().getDevices().stream().collect(Collectors.toMap(Device::getName, d -> d));
        // three whole cards and the four MIG devices of the card in MIG mode, which is not published itself
        assertEquals(Set.of("gpu-0", "gpu-1", "gpu-3", "gpu-2-mig-19-2-1", "gpu-2-mig-19-3-1", "gpu-2-mig-14-0-2",
                "gpu-2-mig-9-4-4"), devices.keySet());
        Device card = devices.get("gpu-1");
        assertEquals("gpu", card.getAttributes().get("type").getString());
        assertEquals(sim.gpus().get(1).uuid(), card.getAttributes().get("uuid").getString());
        assertEquals("NVIDIA A100-SXM4-80GB", card.getAttributes().get("productName").getString());
        assertEquals("80Gi", card.getCapacity().get("memory").getValue().toString());
        Device mig = devices.get("gpu-2-mig-9-4-4");
        assertEquals("mig", mig.getAttributes().get("type").getString());
        assertEquals("3g.40gb", mig.getAttributes().get("profile").getString());
        assertEquals(sim.gpus().get(2).uuid(), mig.getAttributes().get("parentUUID").getString());
        assertTrue(mig.getAttributes().get("uuid").getString().startsWith("MIG-"));
        assertEquals(Set.of("multiprocessors", "memory", "memorySlice4", "memorySlice5", "memorySlice6", "memorySlice7"),
                mig.getCapacity().keySet());
        assertEquals(Set.of("gpu.nvidia.com", "mig.nvidia.com"), last(DeviceClass.class).stream()
                .map(c -> c.getMetadata().getName()).collect(Collectors.toSet()));
    }

    @Test
    void fourPodsHoldAWholeCardAMigDeviceAndOneSharedClaim() {
        List<SimPod> pods = plan.pods().stream().filter(p -> p.pool() == GpuPool.DRA).toList();
        assertEquals(4, pods.size());
        Map<String, ResourceClaim> claims = last(ResourceClaim.class).stream()
                .collect(Collectors.toMap(c -> c.getMetadata().getName(), c -> c));
        assertEquals(3, claims.size());
        ResourceClaim shared = claims.get("dra-infer-shared");
        assertEquals("gpu-1", shared.getStatus().getAllocation().getDevices().getResults().get(0).getDevice());
        assertEquals(2, shared.getStatus().getReservedFor().size());
        for (SimPod p : pods) {
            Pod pod = last(Pod.class).stream().filter(o -> o.getMetadata().getUid().equals(p.uid())).findFirst().orElseThrow();
            assertEquals(DraPool.NODE, pod.getSpec().getNodeName());
            assertEquals("Running", pod.getStatus().getPhase());
            assertTrue(pod.getSpec().getContainers().get(0).getResources().getLimits() == null
                    || pod.getSpec().getContainers().get(0).getResources().getLimits().isEmpty(), "no GPU resource asked");
            String claim = pod.getSpec().getResourceClaims().get(0).getResourceClaimName() != null
                    ? pod.getSpec().getResourceClaims().get(0).getResourceClaimName()
                    : pod.getStatus().getResourceClaimStatuses().get(0).getResourceClaimName();
            ResourceClaim c = claims.get(claim);
            assertTrue(c.getStatus().getReservedFor().stream().anyMatch(r -> r.getUid().equals(p.uid())), p.name());
            assertEquals(Duration.ofSeconds(30), Duration.between(p.scheduledAt(), p.startedAt()));
        }
        assertEquals(END.minus(DraPool.TRAIN_BEFORE_END), pods.get(0).scheduledAt());
        assertEquals(MigProfile.MIG_3G_40GB, pods.get(1).grants().get(0).migProfile());
        assertEquals(pods.get(2).grants().get(0).gpuUuid(), pods.get(3).grants().get(0).gpuUuid());
    }

    @Test
    void theSimulatedApiServerTakesTheDraObjects() {
        try (SimulatedApiServer server = SimulatedApiServer.start()) {
            new FleetSimulator(42, END).applyTo(server.client());
            assertEquals(1, server.client().resources(ResourceSlice.class).list().getItems().size());
            assertEquals(2, server.client().resources(DeviceClass.class).list().getItems().size());
            List<ResourceClaim> claims = server.client().resources(ResourceClaim.class).inAnyNamespace().list().getItems();
            assertEquals(3, claims.size());
            assertTrue(claims.stream().allMatch(c -> c.getStatus().getAllocation() != null));
        }
    }
}
