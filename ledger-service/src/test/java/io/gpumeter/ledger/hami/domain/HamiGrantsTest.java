package io.gpumeter.ledger.hami.domain;

import io.gpumeter.common.fact.RegisteredGpu;
import io.gpumeter.common.fact.VgpuGrant;
import io.gpumeter.ledger.history.domain.GpuBinding;
import io.gpumeter.ledger.history.domain.PodHistory;
import io.gpumeter.ledger.history.domain.PodVersions;
import io.gpumeter.ledger.inventory.domain.NodeInventory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every check a HAMi grant must pass, each failing alone against a grant that otherwise holds. */
class HamiGrantsTest {

    static final Instant T0 = Instant.parse("2026-05-10T10:00:00Z");
    static final HamiGrants GRANTS = new HamiGrants(HamiResources.DEFAULTS);
    static final NodeInventory NODE = new NodeInventory("node-1", Map.of(), List.of(
            new RegisteredGpu("GPU-1", "NVIDIA-H100", 81920, 100, 10, 0, true),
            new RegisteredGpu("GPU-2", "NVIDIA-H100", 81920, 100, 10, 0, true)));
    static final Map<String, Long> ASKS = Map.of("nvidia.com/gpu", 1L, "nvidia.com/gpumem", 20480L,
            "nvidia.com/gpucores", 30L);
    static final VgpuGrant GRANT = new VgpuGrant(0, "GPU-1", "NVIDIA", 20480, 30);

    static PodVersions pod() {
        return new PodVersions("u1").resources(ASKS).vgpus(GRANT).hami("success", "node-1");
    }

    static HamiGrants.Verdict verify(PodVersions pod, NodeInventory node, List<GpuBinding> seen) {
        return GRANTS.verify(new PodHistory(List.of(pod.scheduled(2, T0))), node, seen, T0, null);
    }

    @Test
    void aGrantEverythingAgreesWithIsHeld() {
        HamiGrants.Verdict verdict = verify(pod(), NODE, List.of(new GpuBinding("GPU-1", "", null, T0, T0.plusSeconds(60))));
        assertEquals(List.of(GRANT), verdict.held());
        assertTrue(verdict.refused().isEmpty());
    }

    static Stream<Arguments> refusals() {
        GpuBinding otherCard = new GpuBinding("GPU-2", "", null, T0.plusSeconds(60), T0.plusSeconds(120));
        return Stream.of(
                Arguments.of("no GPU asked at all", pod().resources(Map.of()), NODE, List.of(), HamiCheck.NOT_REQUESTED),
                Arguments.of("only whole-card MIG asked", pod().resources(Map.of("nvidia.com/mig-1g.10gb", 1L)), NODE,
                        List.of(), HamiCheck.NOT_REQUESTED),
                Arguments.of("bind-phase absent", pod().hami(null, "node-1"), NODE, List.of(), HamiCheck.NOT_BOUND),
                Arguments.of("bind-phase allocating", pod().hami("allocating", "node-1"), NODE, List.of(),
                        HamiCheck.NOT_BOUND),
                Arguments.of("bind-phase failed", pod().hami("failed", "node-1"), NODE, List.of(), HamiCheck.NOT_BOUND),
                Arguments.of("bound on another node", pod().hami("success", "node-9"), NODE, List.of(),
                        HamiCheck.BOUND_ELSEWHERE),
                Arguments.of("node not seen yet", pod(), null, List.of(), HamiCheck.NODE_NOT_KNOWN),
                Arguments.of("node without HAMi registration", pod(), new NodeInventory("node-1", Map.of(), List.of()),
                        List.of(), HamiCheck.CARD_NOT_ON_NODE),
                Arguments.of("card of another node", pod().vgpus(new VgpuGrant(0, "GPU-9", "NVIDIA", 20480, 30)), NODE,
                        List.of(), HamiCheck.CARD_NOT_ON_NODE),
                Arguments.of("more memory than gpumem", pod().vgpus(new VgpuGrant(0, "GPU-1", "NVIDIA", 20481, 30)),
                        NODE, List.of(), HamiCheck.MEMORY_OVER_REQUEST),
                Arguments.of("more memory than the percentage", pod().resources(Map.of("nvidia.com/gpu", 1L,
                                "nvidia.com/gpumem-percentage", 25L, "nvidia.com/gpucores", 30L))
                        .vgpus(new VgpuGrant(0, "GPU-1", "NVIDIA", 20481, 30)), NODE, List.of(),
                        HamiCheck.MEMORY_OVER_REQUEST),
                Arguments.of("more memory than registered", pod().resources(Map.of("nvidia.com/gpu", 1L,
                                "nvidia.com/gpucores", 30L)).vgpus(new VgpuGrant(0, "GPU-1", "NVIDIA", 81921, 30)), NODE,
                        List.of(), HamiCheck.MEMORY_OVER_REQUEST),
                Arguments.of("more cores than gpucores", pod().vgpus(new VgpuGrant(0, "GPU-1", "NVIDIA", 20480, 31)),
                        NODE, List.of(), HamiCheck.CORES_OVER_REQUEST),
                Arguments.of("cores with none asked", pod().resources(Map.of("nvidia.com/gpu", 1L,
                        "nvidia.com/gpumem", 20480L)), NODE, List.of(), HamiCheck.CORES_OVER_REQUEST),
                Arguments.of("the device side saw another card", pod(), NODE, List.of(otherCard),
                        HamiCheck.DEVICE_SEES_OTHER_CARD));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusals")
    void aGrantFailingOneCheckBooksNothing(String name, PodVersions pod, NodeInventory node, List<GpuBinding> seen,
                                          HamiCheck check) {
        HamiGrants.Verdict verdict = verify(pod, node, seen);
        assertTrue(verdict.held().isEmpty(), verdict.toString());
        assertEquals(1, verdict.refused().size(), verdict.toString());
        assertEquals(check, verdict.refused().get(0).check());
        assertFalse(verdict.refused().get(0).detail().isBlank());
        assertEquals(check == HamiCheck.NODE_NOT_KNOWN, verdict.waiting());
    }

    @Test
    void theLimitsThemselvesAreHeld() {
        PodVersions percentage = pod().resources(Map.of("nvidia.com/gpu", 1L, "nvidia.com/gpumem-percentage", 25L))
                .vgpus(new VgpuGrant(0, "GPU-1", "NVIDIA", 20480, 0));
        assertEquals(1, verify(percentage, NODE, List.of()).held().size());
        PodVersions wholeMemory = pod().resources(Map.of("nvidia.com/gpu", 1L))
                .vgpus(new VgpuGrant(0, "GPU-1", "NVIDIA", 81920, 0));
        assertEquals(1, verify(wholeMemory, NODE, List.of()).held().size());
    }

    @Test
    void grantsBeyondTheAskedCountAreRefusedOneByOne() {
        VgpuGrant second = new VgpuGrant(0, "GPU-2", "NVIDIA", 20480, 30);
        HamiGrants.Verdict verdict = verify(pod().vgpus(GRANT, second), NODE, List.of());
        assertEquals(List.of(GRANT), verdict.held());
        assertEquals(second, verdict.refused().get(0).grant());
        assertEquals(HamiCheck.NOT_REQUESTED, verdict.refused().get(0).check());
    }

    @Test
    void sightingsOutsideTheAllocationDoNotCount() {
        GpuBinding before = new GpuBinding("GPU-2", "", null, T0.minusSeconds(600), T0.minusSeconds(60));
        assertEquals(1, verify(pod(), NODE, List.of(before)).held().size());
        GpuBinding migInstance = new GpuBinding("GPU-2", "3", "1g.10gb", T0, T0.plusSeconds(60));
        assertEquals(1, verify(pod(), NODE, List.of(migInstance)).held().size());
    }

    @Test
    void anAnnotationPatchedAfterHamiBoundThePodIsIgnored() {
        PodVersions honest = pod();
        PodVersions patched = pod().vgpus(new VgpuGrant(0, "GPU-2", "NVIDIA", 20480, 30));
        HamiGrants.Verdict verdict = GRANTS.verify(new PodHistory(List.of(honest.scheduled(2, T0),
                patched.scheduled(3, T0.plusSeconds(600)))), NODE, List.of(), T0, null);
        assertEquals(List.of(GRANT), verdict.held());
        assertEquals(1, verdict.refused().size());
        assertEquals(HamiCheck.CHANGED_AFTER_BINDING, verdict.refused().get(0).check());
        assertEquals("GPU-2", verdict.refused().get(0).grant().uuid());
    }

    @Test
    void aPodWithoutGrantsHasNothingToVerify() {
        HamiGrants.Verdict verdict = verify(new PodVersions("u2"), NODE, List.of());
        assertTrue(verdict.held().isEmpty());
        assertTrue(verdict.refused().isEmpty());
    }
}
