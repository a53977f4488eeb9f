package io.gpumeter.launcher.simulator;

import java.util.SplittableRandom;
import java.util.UUID;

/** Identifiers shaped like the real ones, drawn from a seeded random source so that a seed fixes them all. */
final class Ids {

    /** The alphabet Kubernetes uses for generated name suffixes (no vowels, no look-alikes). */
    private static final String SAFE = "bcdfghjklmnpqrstvwxz2456789";
    private static final String HEX = "0123456789abcdef";

    private final SplittableRandom random;

    Ids(SplittableRandom random) {
        this.random = random;
    }

    /** A version-4 UUID, as the API server gives objects. */
    String uid() {
        long most = (random.nextLong() & ~0xF000L) | 0x4000L;
        long least = (random.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
        return new UUID(most, least).toString();
    }

    /** An NVIDIA GPU UUID, {@code GPU-} followed by a UUID. */
    String gpuUuid() {
        return "GPU-" + new UUID(random.nextLong(), random.nextLong());
    }

    /** A MIG device UUID, {@code MIG-} followed by a UUID. */
    String migUuid() {
        return "MIG-" + new UUID(random.nextLong(), random.nextLong());
    }

    /** A generated-name suffix such as the five characters after a ReplicaSet's name. */
    String suffix(int length) {
        StringBuilder out = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            out.append(SAFE.charAt(random.nextInt(SAFE.length())));
        }
        return out.toString();
    }

    /** A containerd container id: 64 hex digits. */
    String containerId() {
        StringBuilder out = new StringBuilder("containerd://");
        for (int i = 0; i < 64; i++) {
            out.append(HEX.charAt(random.nextInt(16)));
        }
        return out.toString();
    }

    /** A ReplicaSet's pod-template-hash for one revision of a Deployment, the same for every pod of it. */
    static String templateHash(long seed, String deployment, int revision) {
        SplittableRandom r = new SplittableRandom(seed * 31 + deployment.hashCode() * 17L + revision);
        return new Ids(r).suffix(10);
    }

    /** The ReplicaSet uid that goes with {@link #templateHash}. */
    static String replicaSetUid(long seed, String deployment, int revision) {
        SplittableRandom r = new SplittableRandom(seed * 37 + deployment.hashCode() * 13L + revision);
        return new Ids(r).uid();
    }
}
