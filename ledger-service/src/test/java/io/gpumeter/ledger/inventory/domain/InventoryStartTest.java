package io.gpumeter.ledger.inventory.domain;

import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class InventoryStartTest {

    static final Instant SEEN = Instant.parse("2026-07-31T00:00:00Z");
    static final Instant CREATED = Instant.parse("2026-07-01T00:00:00Z");

    @Test
    void aNodesLifeStartsAtTheEarlierOfItsFirstObservationAndItsCreation() {
        assertEquals(CREATED, InventoryStart.node(SEEN, CREATED, null));
        assertEquals(SEEN, InventoryStart.node(SEEN, null, null), "no creation known: the first sighting");
        assertEquals(SEEN, InventoryStart.node(SEEN, SEEN.plusSeconds(5), null), "a creation after the sighting changes nothing");
        Instant deleted = Instant.parse("2026-07-20T00:00:00Z");
        assertEquals(deleted, InventoryStart.node(SEEN, CREATED, deleted), "never before the name's previous life ended");
    }

    @Test
    void cardsThatCameWithTheFirstSightingCountFromTheLifesStart() {
        assertEquals(CREATED, InventoryStart.card(SEEN, SEEN, CREATED));
        assertEquals(CREATED, InventoryStart.card(SEEN.plusSeconds(15 * 60), SEEN, CREATED), "15 minutes after: with it");
        Instant later = SEEN.plusSeconds(15 * 60 + 1);
        assertEquals(later, InventoryStart.card(later, SEEN, CREATED), "a second past the tolerance: its own first sighting");
        assertTrue(InventoryStart.withFirstSighting(SEEN.minusSeconds(60), SEEN), "seen just before the node's version");
        assertFalse(InventoryStart.withFirstSighting(SEEN.plusSeconds(3600), SEEN));
    }
}
