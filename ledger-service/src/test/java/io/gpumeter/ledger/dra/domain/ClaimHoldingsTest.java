package io.gpumeter.ledger.dra.domain;

import io.gpumeter.common.fact.ClaimConsumer;
import io.gpumeter.common.fact.ClaimRequest;
import io.gpumeter.common.fact.ClaimResult;
import io.gpumeter.common.fact.DraDevice;
import io.gpumeter.common.fact.NamespaceFact;
import io.gpumeter.common.fact.ResourceClaimFact;
import io.gpumeter.common.fact.ResourceSliceFact;
import io.gpumeter.common.fact.WatchEventType;
import io.gpumeter.ledger.allocation.domain.NormalizationPolicy;
import io.gpumeter.ledger.allocation.domain.PodUnit;
import io.gpumeter.ledger.allocation.domain.Sharing;
import io.gpumeter.ledger.allocation.domain.UnitKind;
import io.gpumeter.ledger.allocation.domain.VgpuRule;
import io.gpumeter.ledger.history.domain.NamespaceTimeline;
import io.gpumeter.ledger.history.domain.PodHistory;
import io.gpumeter.ledger.history.domain.PodVersions;
import io.gpumeter.ledger.violation.domain.Violation;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
        return pod("ns", uid, start, end);
    }

    static PodHistory pod(String namespace, String uid, double start, Double end) {
        PodVersions v = new PodVersions(uid).namespace(namespace).resources(Map.of());
        return new PodHistory(end == null ? List.of(v.scheduled(5, h(start)))
                : List.of(v.scheduled(5, h(start)), v.finished(6, h(start), h(end), null)));
    }

    static Map<String, ClaimHoldings.PodClaims> derive(Map<String, PodHistory> pods, List<ResourceClaimFact> versions) {
        return derive(pods, versions, NamespaceTimeline.unknown("ns"));
    }

    static Map<String, ClaimHoldings.PodClaims> derive(Map<String, PodHistory> pods, List<ResourceClaimFact> versions,
                                                       NamespaceTimeline namespace) {
        Map<String, Set<String>> claims = new java.util.HashMap<>();
        pods.keySet().forEach(p -> claims.put(p, Set.of("ns/c")));
        return HOLDINGS.derive(pods, claims, Map.of("ns/c", versions), DEVICES,
                ns -> ns.equals("ns") ? namespace : NamespaceTimeline.unknown(ns));
    }

    /** Namespace "ns" first seen at T0 - 1 h unlabelled, then labelled for admin access from {@code labelled} on. */
    static NamespaceTimeline labelledFrom(Instant labelled) {
        NamespaceFact before = new NamespaceFact("ns", "ns-uid", "1", WatchEventType.ADDED, h(-1), Map.of(), Map.of());
        NamespaceFact after = new NamespaceFact("ns", "ns-uid", "2", WatchEventType.MODIFIED, h(9),
                Map.of(NamespaceTimeline.ADMIN_ACCESS_LABEL, "true"), Map.of(NamespaceTimeline.ADMIN_ACCESS_LABEL, labelled));
        return NamespaceTimeline.of("ns", List.of(before, after), "tenant", "team", "project");
    }

    static ResourceClaimFact adminClaim(List<String> pods) {
        return new ResourceClaimFact("c1", "ns", "c", "7", WatchEventType.ADDED, T0, null,
                List.of(new ClaimRequest("gpu", "gpu.nvidia.com", 1L, true)), true,
                List.of(new ClaimResult("gpu", "gpu.nvidia.com", "n1", "gpu-0", true)),
                pods.stream().map(p -> new ClaimConsumer("pods", p, p)).toList());
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
    void adminAccessWhereTheNamespaceAdmitsItHoldsNothingAndAsksNothing() {
        var out = derive(Map.of("a", pod("a", 0, 1.0)), List.of(adminClaim(List.of("a"))), labelledFrom(h(-1))).get("a");
        assertEquals(1, out.held().size(), "the unit is there, free while the label is");
        assertTrue(out.held().get(0).sharing().freeAt(h(0)));
        assertEquals(List.of(h(0)), starts(out.held().get(0).sharing().split(h(0), h(1))));
        assertEquals(0, BigDecimal.ZERO.compareTo(out.requested()));
        assertTrue(out.findings().isEmpty());
    }

    @Test
    void adminAccessInANamespaceNeverLabelledIsAnOrdinaryDeviceAndAFinding() {
        var out = derive(Map.of("a", pod("a", 0, 1.0)), List.of(adminClaim(List.of("a")))).get("a");
        PodUnit unit = out.held().get(0);
        assertEquals("GPU-A", unit.unit().gpuUuid());
        assertEquals("dra-claim+admin-access-unlabelled", unit.unit().source());
        assertFalse(unit.sharing().freeAt(h(0.5)));
        assertEquals(0, BigDecimal.ONE.compareTo(out.requested()), "asked as an ordinary request");
        assertEquals(Set.of(Violation.Kind.DRA_ADMIN_ACCESS_UNLABELLED), out.findings());
    }

    @Test
    void adminAccessIsBilledUntilTheLabelIsSetAndNothingAfter() {
        // a holds the admin device 0–3 h; the label is set at 1.5 h: billed 0–1.5 h, free after.
        var out = derive(Map.of("a", pod("a", 0, 3.0)), List.of(adminClaim(List.of("a"))), labelledFrom(h(1.5))).get("a");
        Sharing sharing = out.held().get(0).sharing();
        assertEquals(List.of(h(0), h(1.5)), starts(sharing.split(h(0), h(3))));
        assertFalse(sharing.freeAt(h(1.49)));
        assertTrue(sharing.freeAt(h(1.5)));
        assertEquals(Set.of(Violation.Kind.DRA_ADMIN_ACCESS_UNLABELLED), out.findings());
        assertEquals(0, BigDecimal.ONE.compareTo(out.requested()), "asked at 0 h, before the label");
        // a pod that started once the label was set is not billed, nor found
        var later = derive(Map.of("b", pod("b", 2, 3.0)), List.of(adminClaim(List.of("b"))), labelledFrom(h(1.5))).get("b");
        assertTrue(later.findings().isEmpty());
        assertTrue(later.held().get(0).sharing().freeAt(h(2)));
    }

    @Test
    void aFirstVersionCarryingTheLabelCountsFromWhenItWasSet() {
        NamespaceFact only = new NamespaceFact("ns", "ns-uid", "5", WatchEventType.ADDED, h(9),
                Map.of(NamespaceTimeline.ADMIN_ACCESS_LABEL, "true"), Map.of(NamespaceTimeline.ADMIN_ACCESS_LABEL, h(1)));
        NamespaceTimeline timeline = NamespaceTimeline.of("ns", List.of(only), "tenant", "team", "project");
        assertFalse(timeline.adminAccessAt(h(0.5)));
        assertTrue(timeline.adminAccessAt(h(1)));
        NamespaceFact other = new NamespaceFact("ns", "ns-uid", "5", WatchEventType.ADDED, h(9),
                Map.of(NamespaceTimeline.ADMIN_ACCESS_LABEL, "yes"), Map.of());
        assertFalse(NamespaceTimeline.of("ns", List.of(other), "t", "t", "p").adminAccessAt(h(10)), "only \"true\" admits");
    }

    @Test
    void aPodOfAnotherNamespaceNamedInReservedForHoldsNothingAndIsFound() {
        // The claim ns/c is reserved for x, a pod of namespace "victim", and for a, its own pod.
        Map<String, PodHistory> pods = Map.of("a", pod("a", 0, 2.0), "x", pod("victim", "x", 0, 2.0));
        var out = derive(pods, List.of(claim("c1", "7", "gpu-0", List.of("a", "x"))));
        assertTrue(out.get("x").held().isEmpty());
        assertEquals(0, BigDecimal.ZERO.compareTo(out.get("x").requested()));
        assertEquals(Set.of(Violation.Kind.DRA_CONSUMER_OTHER_NAMESPACE), out.get("x").findings());
        assertEquals(1, out.get("a").held().size());
        assertEquals(1, out.get("a").held().get(0).sharing().holdersAt(h(1)), "the card is not shared with x");
        assertEquals(BigDecimal.ONE, out.get("a").held().get(0).unit().fraction());
        assertTrue(out.get("a").findings().isEmpty());
    }

    @Test
    void unallocatedClaimsHoldNothingAndAskAWholeCard() {
        var pending = derive(Map.of("a", pod("a", 0, null)), List.of(claim("c1", "3", null, List.of()))).get("a");
        assertTrue(pending.held().isEmpty());
        assertEquals(0, BigDecimal.ONE.compareTo(pending.requested()), "one whole card asked while unallocated");
    }

    static List<Instant> starts(List<Instant[]> pieces) {
        return pieces.stream().map(p -> p[0]).toList();
    }

    @Test
    void aDeviceOfAnUnknownSliceCountsAsAWholeCardOfUnknownIdentity() {
        var unit = derive(Map.of("a", pod("a", 0, 1.0)), List.of(claim("c1", "7", "gpu-7", List.of("a")))).get("a").held().get(0).unit();
        assertNull(unit.gpuUuid());
        assertEquals("dra-claim+unresolved", unit.source());
    }
}
