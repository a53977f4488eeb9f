package io.gpumeter.collector.kubernetes;

/** The extended resource names that ask for a GPU or a share of one. */
final class GpuResources {

    private GpuResources() {
    }

    static boolean isGpuResource(String name) {
        return name.equals("nvidia.com/gpu") || name.startsWith("nvidia.com/mig-")
                || name.equals("nvidia.com/gpumem") || name.equals("nvidia.com/gpumem-percentage")
                || name.equals("nvidia.com/gpucores");
    }
}
