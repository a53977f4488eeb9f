package io.gpumeter.alert.domain;

/** How many GPU nodes gpumeter may hold cordoned at once: a share of the fleet, never fewer than a floor. */
public final class BlastRadius {

    private BlastRadius() {
    }

    /**
     * @param fleetNodes GPU nodes known, or a negative number when unknown (then only the floor applies)
     * @param share      the largest share of the fleet to cordon, 0..1
     * @param floor      nodes that may always be cordoned, whatever the fleet size
     */
    public static int allowed(int fleetNodes, double share, int floor) {
        int byShare = fleetNodes < 0 ? 0 : (int) Math.floor(fleetNodes * share + 1e-9);
        return Math.max(floor, byShare);
    }
}
