package io.gpumeter.ledger.allocation.domain;

import io.gpumeter.ledger.history.domain.GpuBinding;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class CardNamingTest {

    static final Instant T0 = Instant.parse("2026-07-01T00:00:00Z");

    static AllocationUnit whole() {
        return new AllocationUnit(UnitKind.WHOLE, null, "A100", null, null, null, BigDecimal.ONE, "device-plugin");
    }

    static AllocationUnit mig(String profile) {
        return new AllocationUnit(UnitKind.MIG, null, "A100", profile, null, null, new BigDecimal("0.142857142857"), "mig-resource");
    }

    static GpuBinding seen(String uuid, String instance, String profile, long fromHours, long toHours) {
        return new GpuBinding(uuid, instance, profile, T0.plusSeconds(fromHours * 3600), T0.plusSeconds(toHours * 3600));
    }

    @Test
    void eachSightingNamesOneWholeCardInOrderOfFirstSighting() {
        List<AllocationUnit> named = CardNaming.name(List.of(whole(), whole(), whole()),
                List.of(seen("GPU-B", "", null, 2, 5), seen("GPU-A", "", null, 1, 5)), T0, null);
        assertEquals("GPU-A", named.get(0).gpuUuid());
        assertEquals("GPU-B", named.get(1).gpuUuid());
        assertNull(named.get(2).gpuUuid(), "no third sighting, the third card stays unknown");
        assertEquals("device-plugin+exporter-labels", named.get(0).source());
    }

    @Test
    void migUnitsTakeOnlyInstancesOfTheirProfile() {
        List<AllocationUnit> named = CardNaming.name(List.of(mig("2g.20gb"), whole()),
                List.of(seen("GPU-M", "3", "1g.10gb", 0, 5), seen("GPU-M", "5", "2g.20gb", 0, 5), seen("GPU-W", "", null, 0, 5)),
                T0, null);
        assertEquals("GPU-M", named.get(0).gpuUuid());
        assertEquals("GPU-W", named.get(1).gpuUuid());
    }

    @Test
    void sightingsOutsideTheAllocationDoNotCount() {
        // A StatefulSet pod keeps its name across restarts: yesterday's card is not today's.
        List<AllocationUnit> named = CardNaming.name(List.of(whole()),
                List.of(seen("GPU-OLD", "", null, -30, -20)), T0, T0.plusSeconds(3600));
        assertNull(named.get(0).gpuUuid());
    }

    static PodUnit claimedMig(String card, String profile) {
        return PodUnit.alone(new AllocationUnit(UnitKind.MIG, card, "NVIDIA A100-SXM4-80GB", profile, null, null,
                new BigDecimal("0.428571428571"), "dra-claim"));
    }

    @Test
    void aClaimedMigDeviceTakesTheInstanceItsPodWasSeenOnOnItsCardWithItsProfile() {
        // the other card's instance and an instance of another profile name nothing; the second unit finds no
        // sighting left and keeps no instance (its card's activity is apportioned to it)
        List<PodUnit> units = CardNaming.instances(List.of(claimedMig("GPU-D", "3g.40gb"), claimedMig("GPU-D", "3g.40gb")),
                List.of(), List.of(seen("GPU-E", "1", "3g.40gb", 0, 5), seen("GPU-D", "2", "2g.20gb", 0, 5),
                        seen("GPU-D", "7", "3g.40gb", 1, 5)), T0, null);
        assertEquals("7", units.get(0).unit().migInstance());
        assertEquals("dra-claim+exporter-labels", units.get(0).unit().source());
        assertNull(units.get(1).unit().migInstance());
        assertEquals("dra-claim", units.get(1).unit().source());
    }

    @Test
    void anInstanceAPlannedUnitTookIsNotTakenTwice() {
        AllocationUnit planned = new AllocationUnit(UnitKind.MIG, "GPU-D", "A100", "3g.40gb", null, null,
                new BigDecimal("0.428571428571"), "mig-resource+exporter-labels", "7");
        List<PodUnit> units = CardNaming.instances(List.of(claimedMig("GPU-D", "3g.40gb")), List.of(planned),
                List.of(seen("GPU-D", "7", "3g.40gb", 0, 5)), T0, null);
        assertNull(units.get(0).unit().migInstance());
    }
}
