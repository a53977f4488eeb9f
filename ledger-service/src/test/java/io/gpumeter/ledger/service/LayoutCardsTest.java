package io.gpumeter.ledger.service;

import io.gpumeter.common.fact.NodeFact;
import io.gpumeter.common.fact.WatchEventType;
import io.gpumeter.ledger.allocation.domain.NormalizationPolicy;
import io.gpumeter.ledger.allocation.domain.UnitKind;
import io.gpumeter.ledger.allocation.domain.VgpuRule;
import io.gpumeter.ledger.fleet.FleetLayout.CardSource;
import io.gpumeter.ledger.fragmentation.domain.HeldUnit;
import io.gpumeter.ledger.inventory.domain.NodePools;
import io.gpumeter.ledger.repository.FragmentationRepository.NodeAt;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Where the layout puts each held unit, worked out by hand from the fragmentation probe's rule. */
class LayoutCardsTest {

    private static final NormalizationPolicy POLICY = new NormalizationPolicy("v1", VgpuRule.MAX, new BigDecimal("0.5"), 7,
            Map.of(), null);
    private final LayoutCards cards = new LayoutCards(POLICY, new NodePools(List.of("gpumeter.io/pool")));

    private static NodeAt counted(String name, int count) {
        return new NodeAt("c", new NodeFact(name, name, "1", WatchEventType.ADDED, Instant.parse("2026-01-01T00:00:00Z"),
                Map.of("nvidia.com/gpu.product", "NVIDIA-L40S", "nvidia.com/gpu.count", Integer.toString(count)), List.of()));
    }

    private static HeldUnit whole(String node, String uuid) {
        return new HeldUnit("c", node, uuid, UnitKind.WHOLE, null, 0, 0);
    }

    private static List<String> uuids(LayoutCards.Placed placed) {
        return placed.cards().stream().map(LayoutCards.Listed::uuid).toList();
    }

    /**
     * n1 counts 3 cards and its units are 4 whole cards: the one a source names (GPU-X) takes the first counted card,
     * the 2 unnamed the next two in order, the third unnamed finds no untouched card left and is unplaced; its memory
     * unknown, no card is left out.
     */
    @Test
    void aNamedCardTakesACountedPlaceAndTheUnnamedUnitsTheRestInOrder() {
        List<HeldUnit> units = List.of(whole("n1", null), whole("n1", "GPU-X"), whole("n1", null), whole("n1", null));
        LayoutCards.Placed placed = cards.place(List.of(counted("n1", 3)), Map.of(), units);
        assertEquals(Arrays.asList("GPU-X", null, null), uuids(placed));
        assertEquals(List.of(CardSource.COUNTED, CardSource.COUNTED, CardSource.COUNTED),
                placed.cards().stream().map(LayoutCards.Listed::source).toList());
        // unit 0 (unnamed) -> n1#1, unit 1 -> GPU-X, unit 2 -> n1#2, unit 3 -> none
        assertEquals(Arrays.asList("n1#1", "GPU-X", "n1#2", null), placed.unitCards().stream()
                .map(c -> c == null ? null : c.card().uuid()).toList());
    }

    /**
     * n2 is not in the inventory: its two time-sliced units need one card whose replicas hold both, and its whole-card
     * unit one more; both cards are known from the units alone, of n2's pool unknown.
     */
    @Test
    void aNodeTheInventoryDidNotKnowGetsAsFewCardsAsItsUnitsNeed() {
        List<HeldUnit> units = List.of(new HeldUnit("c", "n2", null, UnitKind.SHARED, null, 0, 0),
                new HeldUnit("c", "n2", null, UnitKind.SHARED, null, 0, 0), whole("n2", null));
        LayoutCards.Placed placed = cards.place(List.of(), Map.of(), units);
        assertEquals(2, placed.cards().size());
        assertEquals(List.of(CardSource.HELD, CardSource.HELD), placed.cards().stream().map(LayoutCards.Listed::source).toList());
        assertEquals(NodePools.UNKNOWN, placed.cards().get(0).card().pool());
        assertEquals(placed.unitCards().get(0), placed.unitCards().get(1));
        assertEquals(false, placed.unitCards().get(2).equals(placed.unitCards().get(0)));
        assertEquals(0, placed.unitCards().stream().filter(c -> c == null).count());
    }
}
