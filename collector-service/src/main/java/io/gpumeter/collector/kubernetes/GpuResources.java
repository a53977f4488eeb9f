package io.gpumeter.collector.kubernetes;

/**
 * The extended resource names that ask for a GPU or a share of one: every resource of NVIDIA's domain — whole cards,
 * MIG slices, and HAMi's vGPU count, memory and cores under whatever names its configuration gives them there. The
 * ledger decides what each name means (its {@code gpumeter.ledger.hami.*} settings); the collector only carries them.
 */
final class GpuResources {

    static final String DOMAIN = "nvidia.com/";

    private GpuResources() {
    }

    static boolean isGpuResource(String name) {
        return name.startsWith(DOMAIN) && name.length() > DOMAIN.length();
    }
}
