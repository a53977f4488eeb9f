package io.gpumeter.ledger.occupancy.domain;

import java.time.Instant;
import java.util.List;

/**
 * What one pod held over a window: each unit with the part of the window it was held, {@code [from, to)}. A pod that
 * held nothing then has no units.
 */
public record PodHoldings(String namespace, String pod, List<Holding> units) {

    /** One unit, its holding as Q1 reports it, and the part of the window it covered. */
    public record Holding(Instant from, Instant to, Occupant occupant) {
    }
}
