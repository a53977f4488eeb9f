package io.gpumeter.ledger.domain;

/**
 * One physical card as the fragmentation probe sees it.
 *
 * @param uuid      the card's UUID, or a stand-in for a card a node counts but names nowhere
 * @param memoryMib the memory HAMi schedules against (its registration, else the physical memory)
 * @param cores     core percentage the card offers (100 unless HAMi registered otherwise)
 * @param slots     how many vGPUs HAMi lets share the card; 0 when unlimited or not a HAMi card
 * @param replicas  time-sliced or MPS replicas of the card; 1 when not shared that way
 * @param mig       the card's MIG layout; null when MIG is off
 */
public record ProbeCard(String cluster, String node, String pool, String uuid, long memoryMib, int cores, int slots,
                        int replicas, MigLayout mig) {

    /**
     * A MIG card: its compute slices, and the one profile every instance has when the node runs the single
     * strategy (null when instances are made to measure).
     */
    public record MigLayout(int slices, MigProfile fixed) {
    }
}
