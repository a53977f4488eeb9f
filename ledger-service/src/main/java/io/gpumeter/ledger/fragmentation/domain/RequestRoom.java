package io.gpumeter.ledger.fragmentation.domain;

/**
 * How many units of one request a card holds when empty, and how many more it takes once the held units are placed
 * ({@link FragmentationProbe#rooms}).
 */
public record RequestRoom(ProbeCard card, HeldUnit request, int whenEmpty, int more) {

    /** The most units of one request a card is asked to hold: past any card's slots, replicas or MIG slices. */
    static final int MOST_UNITS = 1_024;
}
