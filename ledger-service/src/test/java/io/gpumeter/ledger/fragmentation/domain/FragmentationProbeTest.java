package io.gpumeter.ledger.fragmentation.domain;

import io.gpumeter.ledger.allocation.domain.UnitKind;
import io.gpumeter.ledger.inventory.domain.MigProfile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FragmentationProbeTest {

    static final long GIB = 1024;
    static final ShapeMix MIX = ShapeMix.parse(List.of("10:1", "20:1", "30:1"));
    static final FragmentationProbe PROBE = new FragmentationProbe(MIX, List.of(MigProfile.parse("2g.20gb"), MigProfile.parse("3g.40gb")));

    static ProbeCard hami(String uuid, int slots) {
        return new ProbeCard("c", "n1", "p", uuid, 80 * GIB, 100, slots, 1, null);
    }

    static HeldUnit vgpu(String uuid, long gib, int cores) {
        return new HeldUnit("c", "n1", uuid, UnitKind.VGPU, null, cores, gib * GIB);
    }

    static HeldUnit unit(String node, String uuid, UnitKind kind, String profile) {
        return new HeldUnit("c", node, uuid, kind, profile, 0, 0);
    }

    /**
     * Four 80 GiB HAMi cards:
     * <pre>
     * A: one 25 GiB vGPU (30 cores)       free 55, takes more  -> stranded 10:5  20:15 30:25
     * B: one 40 GiB vGPU with 100 cores   free 40, no cores    -> stranded 40 for every shape
     * C: untouched                        free 80              -> stranded 10:0  20:0  30:20
     * D: held whole                       free 0
     * Σ free 175 GiB; 10: 45/175 = 0.257143; 20: 55/175 = 0.314286; 30: 85/175 = 0.485714;
     * overall (45+55+85)/(3x175) = 185/525 = 0.352381
     * </pre>
     */
    @Test
    void strandedMemoryPerShapeAndWeightedOverall() {
        List<CardState> states = PROBE.place(List.of(hami("A", 10), hami("B", 10), hami("C", 10), hami("D", 10)),
                List.of(vgpu("A", 25, 30), vgpu("B", 40, 100), unit("n1", "D", UnitKind.WHOLE, null)));
        Fragmentation f = PROBE.measure("fleet", Map.of(), states);
        assertEquals(4, f.memory().cards());
        assertEquals(175 * GIB, f.memory().freeMiB());
        assertShape(f.memory().shapes().get(0), 10, 45, "0.257143");
        assertShape(f.memory().shapes().get(1), 20, 55, "0.314286");
        assertShape(f.memory().shapes().get(2), 30, 85, "0.485714");
        assertEquals(new BigDecimal("0.352381"), f.memory().overall());
        assertEquals(new BigDecimal("0.333333"), f.memory().shapes().get(0).weight());
        assertEquals(0, f.mig().cards());
        assertNull(f.mig().ratio());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            // name, slots, units (GiB:cores;...), free GiB, takes another
            "room left,            10, 10:0;10:0,      60, true",
            "every slot taken,      2, 10:0;10:0,      60, false",
            "cores spent,          10, 10:60;10:40,    60, false",
            "memory spent,         10, 40:10;40:10,     0, false",
            "no slot limit,         0, 10:0;10:0;10:0, 50, true",
    })
    void aCardThatCannotTakeAnotherTaskStrandsAllItsFreeMemory(String name, int slots, String units, long freeGib, boolean takes) {
        List<HeldUnit> held = java.util.Arrays.stream(units.split(";"))
                .map(u -> vgpu("A", Long.parseLong(u.split(":")[0]), Integer.parseInt(u.split(":")[1]))).toList();
        CardState s = PROBE.place(List.of(hami("A", slots)), held).get(0);
        assertEquals(freeGib * GIB, s.freeMib());
        assertEquals(takes, s.takesAnother());
        assertEquals(takes ? (freeGib % 30) * GIB : freeGib * GIB, s.strandedMib(30 * GIB));
    }

    @Test
    void unnamedUnitsTakeTheirNodesCardsInOrder() {
        List<ProbeCard> cards = List.of(
                new ProbeCard("c", "n2", "p", "n2#0", 80 * GIB, 100, 0, 1, null),
                new ProbeCard("c", "n2", "p", "n2#1", 80 * GIB, 100, 0, 1, null),
                new ProbeCard("c", "n2", "p", "n2#2", 80 * GIB, 100, 0, 1, null));
        List<CardState> states = PROBE.place(cards, List.of(unit("n2", null, UnitKind.WHOLE, null),
                unit("n2", "GPU-named-by-an-exporter", UnitKind.WHOLE, null), unit("n3", null, UnitKind.WHOLE, null)));
        assertEquals(List.of(0L, 0L, 80 * GIB), states.stream().map(CardState::freeMib).toList());
    }

    @Test
    void timeSlicedReplicasFillACardBeforeTheNext() {
        List<ProbeCard> cards = List.of(new ProbeCard("c", "n4", "p", "a", 80 * GIB, 100, 0, 2, null),
                new ProbeCard("c", "n4", "p", "b", 80 * GIB, 100, 0, 2, null));
        List<CardState> states = PROBE.place(cards, List.of(unit("n4", null, UnitKind.SHARED, null),
                unit("n4", null, UnitKind.SHARED, null)));
        assertEquals(List.of(0L, 80 * GIB), states.stream().map(CardState::freeMib).toList());
    }

    /**
     * Profiles 2g (2 slices) and 3g (3 slices) on 7-slice cards made to measure:
     * A holds 2g+2g+2g and takes the unnamed 1g -> 0 free; B holds 3g+3g -> 1 free, fits nothing -> 1 stranded;
     * C holds 4g -> 3 free = one 3g -> none stranded. Free 4, stranded 1 -> 0.25.
     */
    @Test
    void migSlicesMadeToMeasure() {
        ProbeCard.MigLayout layout = new ProbeCard.MigLayout(7, null);
        List<ProbeCard> cards = List.of(new ProbeCard("c", "m", "p", "A", 0, 100, 0, 1, layout),
                new ProbeCard("c", "m", "p", "B", 0, 100, 0, 1, layout), new ProbeCard("c", "m", "p", "C", 0, 100, 0, 1, layout));
        List<HeldUnit> units = List.of(unit("m", "A", UnitKind.MIG, "2g.20gb"), unit("m", "A", UnitKind.MIG, "2g.20gb"),
                unit("m", "A", UnitKind.MIG, "2g.20gb"), unit("m", "B", UnitKind.MIG, "3g.40gb"),
                unit("m", "B", UnitKind.MIG, "3g.40gb"), unit("m", null, UnitKind.MIG, "1g.10gb"),
                unit("m", "C", UnitKind.MIG, "4g.40gb"));
        List<CardState> states = PROBE.place(cards, units);
        assertEquals(List.of(0, 1, 3), states.stream().map(CardState::freeSlices).toList());
        Fragmentation f = PROBE.measure("fleet", Map.of(), states);
        assertEquals(3, f.mig().cards());
        assertEquals(4, f.mig().freeSlices());
        assertEquals(1, f.mig().strandedSlices());
        assertEquals(new BigDecimal("0.25"), f.mig().ratio());
        assertEquals(0, f.memory().cards());
        assertNull(f.memory().overall());
    }

    /**
     * The single strategy fixes every instance's profile. 1g.10gb instances fit neither 2g nor 3g requests: 7
     * instances, 2 held, 5 free slices, all stranded. 3g.40gb instances: 2 per card plus 1 leftover slice; one held
     * -> 3 + 1 free, the leftover stranded.
     */
    @ParameterizedTest(name = "{0}: {1} held -> {2} free, {3} stranded")
    @CsvSource({"1g.10gb, 2, 5, 5", "3g.40gb, 1, 4, 1", "3g.40gb, 2, 1, 1", "2g.20gb, 0, 7, 1"})
    void migInstancesOfOneFixedProfile(String profile, int held, int free, int stranded) {
        ProbeCard card = new ProbeCard("c", "m", "p", "A", 0, 100, 0, 1, new ProbeCard.MigLayout(7, MigProfile.parse(profile)));
        List<HeldUnit> units = java.util.Collections.nCopies(held, unit("m", "A", UnitKind.MIG, profile));
        CardState s = PROBE.place(List.of(card), units).get(0);
        assertEquals(free, s.freeSlices());
        assertEquals(stranded, s.strandedSlices());
    }

    @Test
    void maxPackFillsWithAnyNumberOfEachProfile() {
        assertEquals(0, PROBE.maxPack(1));
        assertEquals(5, PROBE.maxPack(5));
        assertEquals(7, PROBE.maxPack(7));
        assertTrue(FragmentationProbe.fitsIn(MigProfile.parse("2g.20gb"), MigProfile.parse("3g.40gb")));
        assertFalse(FragmentationProbe.fitsIn(MigProfile.parse("3g.40gb"), MigProfile.parse("4g.20gb")));
    }

    @Test
    void aShapeMixRestrictedToTheShapesAskedFor() {
        ShapeMix mix = ShapeMix.parse(List.of("10:2", "20:1", "30"));
        assertEquals(List.of(new ShapeMix.Shape(10, new BigDecimal("2")), new ShapeMix.Shape(40, BigDecimal.ZERO)),
                mix.select(List.of(10, 40)).shapes());
        assertEquals(List.of(new ShapeMix.Shape(40, BigDecimal.ONE)), mix.select(List.of(40)).shapes());
        assertEquals(new BigDecimal("0.5"), mix.share(mix.shapes().get(0)));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {"10:x", "0:1", "10:1,10:2", "10:-1", "1:2:3"})
    void badShapeMixesAreRefused(String entries) {
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> ShapeMix.parse(List.of(entries.split(","))));
    }

    private static void assertShape(Fragmentation.ShapeFigure s, int size, long strandedGib, String ratio) {
        assertEquals(size, s.sizeGiB());
        assertEquals(strandedGib * GIB, s.strandedMiB());
        assertEquals(new BigDecimal(ratio), s.ratio());
    }
}
