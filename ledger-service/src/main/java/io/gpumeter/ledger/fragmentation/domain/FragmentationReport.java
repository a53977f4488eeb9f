package io.gpumeter.ledger.fragmentation.domain;

import java.time.Instant;
import java.util.List;

/**
 * Fragmentation at one instant, per group of cards.
 *
 * @param shapesGiB   the request shapes probed, in GiB
 * @param migProfiles the MIG profiles free slices must fit
 */
public record FragmentationReport(Instant at, String groupBy, String cluster, List<Integer> shapesGiB,
                                  List<String> migProfiles, List<Fragmentation> groups) {
}
