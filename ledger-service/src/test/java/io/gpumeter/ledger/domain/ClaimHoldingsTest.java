package io.gpumeter.ledger.domain;

import io.gpumeter.common.fact.ClaimConsumer;
import io.gpumeter.common.fact.ClaimRequest;
import io.gpumeter.common.fact.ClaimResult;
import io.gpumeter.common.fact.DraDevice;
import io.gpumeter.common.fact.ResourceClaimFact;
import io.gpumeter.common.fact.ResourceSliceFact;
import io.gpumeter.common.fact.WatchEventType;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Who holds a claim's devices, and how a shared claim is divided; every figure worked out by hand. */
class ClaimHoldingsTest {

    static final NormalizationPolicy POLICY = new NormalizationPolicy("v1", VgpuRule.MAX, new BigDecimal("0.5"), 7,
            Map.of("NVIDIA-A30", 4), null);
    static final ClaimHoldings HOLDINGS = new ClaimHoldings(new DraPlanner(POLICY));
    static final Instant T0 = Instant.parse("2026-10-01T10:00:00Z");

    static Instant h(double hours) {
        return T0.plusSeconds((long) (hours * 3600));
    }

    static final DraDevices DEVICES = new DraDevices(List.of(
            new ResourceSliceFact("old", "1", WatchEventType.ADDED, T0, "gpu.nvidia.com", "n1", 1, "n1",
                    List.of(device("gpu-0", "gpu", "GPU-OLD", null, "NVIDIA A30"))),
            new ResourceSliceFact("new", "2", WatchEventType.ADDED, T0, "gpu.nvidia.com", "n1", 2, "n1",
                    List.of(device("gpu-0", "gpu", "GPU-A", null, "NVIDIA A30"),
                            device("gpu-1-mig-2g12gb-1-0", "mig", null, "2g.12gb", "NVIDIA A30"),
                            new DraDevice("nic-0", Map.of("type", "nic"), Map.of())))));

    static DraDevice device(String name, String type, String uuid, String profile, String product) {
        Map<String, String> attributes = new java.util.HashMap<>(Map.of("type", type, "productName", product));
        if (uuid != null) {
            attributes.put("uuid", uuid);
        }
        if (profile != null) {
            attributes.put("gpu.nvidia.com/profile", profile);
            attributes.put("parentUUID", "GPU-B");
        }
        return new DraDevice(name, attributes, Map.of());
    }

    static ResourceClaimFact claim(String uid, String rv, String device, List<String> pods) {
        return new ResourceClaimFact(uid, "ns", "c", rv, WatchEventType.MODIFIED, T0, null,
                List.of(new ClaimRequest("gpu", "gpu.nvidia.com", 1L, false)), device != null,
                device == null ? List.of() : List.of(new ClaimResult("gpu", "gpu.nvidia.com", "n1", device, false)),
                pods.stream().map(p -> new ClaimConsumer("pods", p, p)).toList());
    }

    static PodHistory pod(String uid, double start, Double end) {
        PodVersions v = new PodVersions(uid).resources(Map.of());
        return new PodHistory(List.of(end == null ? v.scheduled(5, h(start)) : v.finished(6, h(start), h(end), null)));
    }

    static Map<String, ClaimHoldings.PodClaims> derive(Map<String, PodHistory> pods, List<ResourceClaimFact> versions) {
        Map<String, Set<String>> claims = new java.util.HashMap<>();
        pods.keySet().forEach(p -> claims.put(p, Set.of("ns/c")));
        return HOLDINGS.derive(pods, claims, Map.of("ns/c", versions), DEVICES);
    }

    @Test
    void theNewestPoolGenerationDescribesTheDevice() {
        var held = derive(Map.of("a", pod("a", 0, 1.0)), List.of(claim("c1", "7", "gpu-0", List.of("a")))).get("a").held();
        assertEquals("GPU-A", held.get(0).unit().gpuUuid());
        assertEquals(UnitKind.WHOLE, held.get(0).unit().kind());
        assertEquals(BigDecimal.ONE, held.get(0).unit().fraction());
    }

    @Test
    void aMigDeviceIsPricedByItsComputeSlicesOnItsParentCard() {
        var unit = derive(Map.of("a", pod("a", 0, 1.0)), List.of(claim("c1", "7", "gpu-1-mig-2g12gb-1-0", List.of("a"))))
                .get("a").held().get(0).unit();
        assertEquals(UnitKind.MIG, unit.kind());
        assertEquals("GPU-B", unit.gpuUuid());
        assertEquals("2g.12gb", unit.migProfile());
        assertEquals(0, new BigDecimal("0.5").compareTo(unit.fraction()), "an A30 has 4 slices: 2/4");
    }

    @Test
    void aDeviceThatIsNoGpuIsNotMetered() {
        assertTrue(derive(Map.of("a", pod("a", 0, 1.0)), List.of(claim("c1", "7", "nic-0", List.of("a")))).get("a").held().isEmpty());
    }

    @Test
    void aSharedClaimIsDividedAmongThoseHoldingItAtEachInstant() {
        // a 0–4 h, b 1–2 h, c 1.5 h–still held: 1 holder, then 2, then 3, then 2 (a, c), then 1 (c).
        Map<String, PodHistory> pods = Map.of("a", pod("a", 0, 4.0), "b", pod("b", 1, 2.0), "c", pod("c", 1.5, null));
        Sharing sharing = derive(pods, List.of(claim("c1", "7", "gpu-0", List.of("a", "b", "c")))).get("a").held().get(0).sharing();
        assertEquals(1, sharing.holdersAt(h(0.5)));
        assertEquals(2, sharing.holdersAt(h(1.2)));
        assertEquals(3, sharing.holdersAt(h(1.7)));
        assertEquals(2, sharing.holdersAt(h(2.0)), "b's end is exclusive");
        assertEquals(1, sharing.holdersAt(h(5)));
        List<Instant[]> pieces = sharing.split(h(0), h(4));
        assertEquals(List.of(h(0), h(1), h(1.5), h(2)), Arrays.stream(pieces.toArray(Instant[][]::new)).map(p -> p[0]).toList());
        assertEquals(0, new BigDecimal("0.333333333333").compareTo(sharing.share(BigDecimal.ONE, h(1.7))));
    }

    @Test
    void onlyThePodsTheClaimWasReservedForHoldIt() {
        // b names the claim but was never in reservedFor (its scheduling failed): it holds nothing.
        Map<String, PodHistory> pods = Map.of("a", pod("a", 0, 2.0), "b", pod("b", 0, 2.0));
        var out = derive(pods, List.of(claim("c1", "7", "gpu-0", List.of("a"))));
        assertEquals(1, out.get("a").held().size());
        assertEquals(1, out.get("a").held().get(0).sharing().holdersAt(h(1)));
        assertTrue(out.get("b").held().isEmpty());
    }

    @Test
    void theAllocationOfTheClaimReservedForThePodCountsNotANewerNamesake() {
        // Claim "c" was deleted and recreated (uid c2) for another pod; a's books keep the first claim's device.
        var out = derive(Map.of("a", pod("a", 0, 1.0)), List.of(claim("c1", "7", "gpu-0", List.of("a")),
                claim("c2", "9", "gpu-1-mig-2g12gb-1-0", List.of("z"))));
        assertEquals("GPU-A", out.get("a").held().get(0).unit().gpuUuid());
    }

    @Test
    void adminAccessAndUnallocatedClaimsHoldNothingAndAskOnlyWhatIsNotAdmin() {
        ResourceClaimFact admin = new ResourceClaimFact("c1", "ns", "c", "7", WatchEventType.ADDED, T0, null,
                List.of(new ClaimRequest("gpu", "gpu.nvidia.com", 1L, true)), true,
                List.of(new ClaimResult("gpu", "gpu.nvidia.com", "n1", "gpu-0", true)), List.of(new ClaimConsumer("pods", "a", "a")));
        var out = derive(Map.of("a", pod("a", 0, 1.0)), List.of(admin)).get("a");
        assertTrue(out.held().isEmpty());
        assertEquals(0, BigDecimal.ZERO.compareTo(out.requested()));
        var pending = derive(Map.of("a", pod("a", 0, null)), List.of(claim("c1", "3", null, List.of()))).get("a");
        assertTrue(pending.held().isEmpty());
        assertEquals(0, BigDecimal.ONE.compareTo(pending.requested()), "one whole card asked while unallocated");
    }

    @Test
    void aDeviceOfAnUnknownSliceCountsAsAWholeCardOfUnknownIdentity() {
        var unit = derive(Map.of("a", pod("a", 0, 1.0)), List.of(claim("c1", "7", "gpu-7", List.of("a")))).get("a").held().get(0).unit();
        assertNull(unit.gpuUuid());
        assertEquals("dra-claim+unresolved", unit.source());
    }
}
