package io.gpumeter.ledger.occupancy.domain;

import java.util.List;

/**
 * What was held on one card over a window: each unit with the part of the window it was held, {@code [from, to)}. A
 * card nobody held then has no units.
 */
public record CardHoldings(String gpuUuid, List<PodHoldings.Holding> units) {
}
