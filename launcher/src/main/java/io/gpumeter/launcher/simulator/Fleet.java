package io.gpumeter.launcher.simulator;

import java.util.ArrayList;
import java.util.List;

/**
 * The simulated hardware the scheduler places pods on: two HAMi H100 nodes, one whole-card A100 node and one A100
 * node cut into MIG instances. The fleet's fifth node, an A100 node under NVIDIA's DRA driver, is {@link DraPool}'s.
 */
final class Fleet {

    static final int GPUS_PER_NODE = 8;
    static final String H100 = "NVIDIA-H100-80GB-HBM3";
    static final long H100_MEMORY_MIB = 81559;
    static final String A100 = "NVIDIA-A100-SXM4-80GB";
    static final long A100_MEMORY_MIB = 81920;
    /** HAMi's default split count: at most this many vGPUs share one card. */
    static final int HAMI_SPLIT_COUNT = 10;

    private Fleet() {
    }

    static List<SimNode> build(Ids ids) {
        List<SimNode> nodes = new ArrayList<>();
        nodes.add(node(ids, "gpu-h100-hami-01", GpuPool.HAMI, H100, H100_MEMORY_MIB, "10.0.1.11"));
        nodes.add(node(ids, "gpu-h100-hami-02", GpuPool.HAMI, H100, H100_MEMORY_MIB, "10.0.1.12"));
        nodes.add(node(ids, "gpu-a100-01", GpuPool.WHOLE_CARD, A100, A100_MEMORY_MIB, "10.0.1.21"));
        nodes.add(node(ids, "gpu-a100-mig-01", GpuPool.MIG, A100, A100_MEMORY_MIB, "10.0.1.31"));
        return nodes;
    }

    private static SimNode node(Ids ids, String name, GpuPool pool, String model, long memoryMib, String hostIp) {
        String uid = ids.uid();
        List<SimGpu> gpus = new ArrayList<>();
        List<MigInstance> instances = new ArrayList<>();
        for (int i = 0; i < GPUS_PER_NODE; i++) {
            SimGpu gpu = new SimGpu(ids.gpuUuid(), name, i, model, memoryMib);
            gpus.add(gpu);
            if (pool == GpuPool.MIG) {
                int slot = 0;
                for (MigProfile profile : MigProfile.values()) {
                    for (int k = 0; k < profile.perGpu(); k++) {
                        instances.add(new MigInstance(gpu.uuid(), profile, slot++, ids.migUuid()));
                    }
                }
            }
        }
        return new SimNode(name, uid, pool, model, hostIp, gpus, instances);
    }
}
