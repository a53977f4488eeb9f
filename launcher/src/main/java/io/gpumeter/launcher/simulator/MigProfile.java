package io.gpumeter.launcher.simulator;

/** The A100 80GB MIG profiles the simulated MIG pool is cut into (layout "all-balanced"). */
public enum MigProfile {
    MIG_1G_10GB("1g.10gb", 1, 9728, 14, 2),
    MIG_2G_20GB("2g.20gb", 2, 19968, 28, 1),
    MIG_3G_40GB("3g.40gb", 3, 40192, 42, 1);

    private final String profile;
    private final int slices;
    private final long memoryMib;
    private final int multiprocessors;
    private final int perGpu;

    MigProfile(String profile, int slices, long memoryMib, int multiprocessors, int perGpu) {
        this.profile = profile;
        this.slices = slices;
        this.memoryMib = memoryMib;
        this.multiprocessors = multiprocessors;
        this.perGpu = perGpu;
    }

    /** The profile name, e.g. {@code 1g.10gb}. */
    public String profile() {
        return profile;
    }

    /** The extended resource name the device plugin advertises, e.g. {@code nvidia.com/mig-1g.10gb}. */
    public String resourceName() {
        return "nvidia.com/mig-" + profile;
    }

    /** Compute slices out of the card's seven. */
    public int slices() {
        return slices;
    }

    public long memoryMib() {
        return memoryMib;
    }

    public int multiprocessors() {
        return multiprocessors;
    }

    /** How many instances of this profile one card holds in the all-balanced layout. */
    public int perGpu() {
        return perGpu;
    }
}
