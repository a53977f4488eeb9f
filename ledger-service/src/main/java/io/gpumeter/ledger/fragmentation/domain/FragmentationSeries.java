package io.gpumeter.ledger.fragmentation.domain;

import java.time.Instant;
import java.util.List;

/**
 * Fragmentation probed every {@code step} from {@code from} (inclusive) to {@code to} (exclusive).
 *
 * @param step an ISO-8601 duration such as PT1H
 */
public record FragmentationSeries(Instant from, Instant to, String step, String groupBy, String cluster,
                                  List<Integer> shapesGiB, List<String> migProfiles, List<Point> points) {

    /** The groups' figures at one instant. */
    public record Point(Instant at, List<Fragmentation> groups) {
    }
}
