package io.gpumeter.ledger.fragmentation.domain;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * Checklist 6 for one group of cards: the share of free capacity typical requests cannot use.
 *
 * @param key   the group's values joined with '/'
 * @param group each grouping dimension's value
 */
public record Fragmentation(String key, Map<String, String> group, Memory memory, Mig mig) {

    /**
     * The memory dimension over cards not split by MIG.
     *
     * @param overall the shapes' ratios weighted by the shape mix; null when nothing is free
     */
    public record Memory(int cards, long freeMiB, List<ShapeFigure> shapes, BigDecimal overall) {
    }

    /** One request shape: the free memory it cannot use, and that as a share of all free memory (null when none). */
    public record ShapeFigure(int sizeGiB, BigDecimal weight, long strandedMiB, BigDecimal ratio) {
    }

    /** MIG cards: free compute slices, those no configured profile fits, and their share (null when none free). */
    public record Mig(int cards, int freeSlices, int strandedSlices, BigDecimal ratio) {
    }
}
