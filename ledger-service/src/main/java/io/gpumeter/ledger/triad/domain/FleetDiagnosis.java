package io.gpumeter.ledger.triad.domain;

import java.time.Instant;
import java.util.Map;

/**
 * How many cards read as each triad signature over a window (each card on its window means).
 *
 * @param cards        cards with a device-level triad series in the window
 * @param firstColumns how many cards' first column came from GR_ENGINE_ACTIVE and how many from GPU_UTIL
 */
public record FleetDiagnosis(Instant from, Instant to, String cluster, TriadThresholds thresholds, int cards,
                             Map<TriadSignature, Integer> signatures, Map<String, Integer> firstColumns) {
}
