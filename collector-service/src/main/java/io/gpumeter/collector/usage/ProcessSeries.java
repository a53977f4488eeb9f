package io.gpumeter.collector.usage;

import io.gpumeter.common.fact.UsageField;

import java.util.List;

/**
 * Turns nvidia-smi's per-process readings into per-process series of the whole card: the memory a process holds
 * ({@code --query-compute-apps}) and the share of the card's time its kernels ran ({@code pmon}'s sm column, the
 * per-process form of {@code utilization.gpu}, hence GPU_UTIL). A process the pusher named a container for carries
 * that pod; one it did not is kept under its pid alone, still counted against the card.
 */
public final class ProcessSeries {

    private ProcessSeries() {
    }

    public static UsageMapping computeApps(List<ComputeApp> apps, String node, ProcessOwners owners) {
        UsageMapping.Builder out = new UsageMapping.Builder();
        for (ComputeApp app : apps) {
            if (app.usedMemoryMib() == null) {
                out.invalid("pid " + app.pid() + " on " + app.gpuUuid(), "used_memory is not reported");
                continue;
            }
            out.add(observation(app.gpuUuid(), node, owners, app.pid(), UsageField.FB_USED_MIB, app.usedMemoryMib(),
                    app.at()));
        }
        return out.build();
    }

    /**
     * pmon's mem column (memory-controller time) is not read: no usage field holds it, as {@code utilization.memory}
     * of the GPU query is not read either.
     *
     * @throws IllegalArgumentException when a row's GPU index is not in {@code gpus}
     */
    public static UsageMapping pmon(List<ProcessUtilization> rows, String node, ProcessOwners owners, GpuIndexes gpus) {
        UsageMapping.Builder out = new UsageMapping.Builder();
        for (ProcessUtilization row : rows) {
            String uuid = gpus.uuid(row.gpuIndex());
            if (uuid == null) {
                throw new IllegalArgumentException("pmon reports pid " + row.pid() + " on GPU index " + row.gpuIndex()
                        + ", which the header does not map to a UUID");
            }
            if (row.smRatio() == null) {
                // MIG-enabled cards print "-": NVML reports no per-process utilization there
                out.invalid("pid " + row.pid() + " on " + uuid, "pmon prints no sm value (a MIG-enabled card)");
                continue;
            }
            out.add(observation(uuid, node, owners, row.pid(), UsageField.GPU_UTIL, row.smRatio(), row.at()));
        }
        return out.build();
    }

    private static UsageObservation observation(String uuid, String node, ProcessOwners owners, long pid,
                                                UsageField field, double value, java.time.Instant at) {
        ProcessOwners.Owner owner = owners.of(pid);
        return new UsageObservation(uuid, node, null, null, null, owner == null ? null : owner.namespace(),
                owner == null ? null : owner.pod(), owner == null ? null : owner.container(), pid, field, value, at);
    }
}
