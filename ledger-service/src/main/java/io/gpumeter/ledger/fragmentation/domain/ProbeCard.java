package io.gpumeter.ledger.fragmentation.domain;

import io.gpumeter.ledger.inventory.domain.MigProfile;

/**
 * One physical card as the fragmentation probe sees it.
 *
 * @param uuid      the card's UUID, or a stand-in for a card a node counts but names nowhere
 * @param memoryMib the memory HAMi schedules against (its registration, else the physical memory)
 * @param cores     core percentage the card offers (100 unless HAMi registered otherwise)
 * @param slots     how many vGPUs HAMi lets share the card; 0 when unlimited or not a HAMi card
 * @param replicas  time-sliced or MPS replicas of the card; 1 when not shared that way
 * @param mig       the card's MIG layout; null when MIG is off
 * @param model     the card's model as its source spells it, null when none names it
 * @param origin    how the inventory knows the card, which decides how requests reach it
 */
public record ProbeCard(String cluster, String node, String pool, String uuid, long memoryMib, int cores, int slots,
                        int replicas, MigLayout mig, String model, Origin origin) {

    /** How the inventory knows a card. */
    public enum Origin {
        /** A node registration names it (HAMi's device registration): requests reach it through the device plugin. */
        REGISTERED,
        /** NVIDIA's DRA driver publishes it in a ResourceSlice: requests reach it through ResourceClaims. */
        PUBLISHED,
        /** Only the node's nvidia.com/gpu.count label counts it: a stand-in the device plugin serves. */
        COUNTED
    }

    /** A registered card of no known model, as the probe's figures need no more. */
    public ProbeCard(String cluster, String node, String pool, String uuid, long memoryMib, int cores, int slots,
                     int replicas, MigLayout mig) {
        this(cluster, node, pool, uuid, memoryMib, cores, slots, replicas, mig, null, Origin.REGISTERED);
    }

    /**
     * A MIG card: its compute slices, and the one profile every instance has when the node runs the single
     * strategy (null when instances are made to measure).
     */
    public record MigLayout(int slices, MigProfile fixed) {
    }
}
