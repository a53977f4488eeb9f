package io.gpumeter.ledger.fragmentation.domain;

/**
 * A card once the held units are placed on it.
 *
 * @param freeMib       memory a vGPU request could still get; 0 on a card held whole, time-sliced or split by MIG
 * @param takesAnother  the card has free memory, cores and a HAMi slot for one more vGPU
 * @param freeSlices    on a MIG card, compute slices not in a held instance
 * @param strandedSlices on a MIG card, free slices no configured profile can use
 */
public record CardState(ProbeCard card, long freeMib, boolean takesAnother, int freeSlices, int strandedSlices) {

    public boolean mig() {
        return card.mig() != null;
    }

    /** Free memory requests of this size cannot use: the remainder, or all of it when no task fits any more. */
    public long strandedMib(long shapeMib) {
        return takesAnother ? freeMib % shapeMib : freeMib;
    }
}
