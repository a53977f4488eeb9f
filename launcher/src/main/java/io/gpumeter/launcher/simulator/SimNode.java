package io.gpumeter.launcher.simulator;

import java.util.List;

/** A GPU node of the simulated fleet, with its cards and (in the MIG pool) their instances. */
public record SimNode(String name, String uid, GpuPool pool, String model, String hostIp, List<SimGpu> gpus,
                      List<MigInstance> migInstances) {

    public SimNode {
        gpus = List.copyOf(gpus);
        migInstances = List.copyOf(migInstances);
    }
}
