package io.gpumeter.ledger.config;

import io.smallrye.config.WithDefault;

import java.math.BigDecimal;
import java.util.Map;
import java.util.Optional;

/**
 * How the ledger attributes allocations to tenants, teams and projects and normalizes them to card-equivalents, HAMi's
 * shares included. Each group is a child of gpumeter.ledger.
 */
public interface AllocationConfig {

    interface Attribution {
        /** Namespace label holding the tenant; the namespace name is the tenant when absent. */
        @WithDefault("gpumeter.io/tenant")
        String tenantLabel();

        /** Pod (else namespace) label holding the team. */
        @WithDefault("gpumeter.io/team")
        String teamLabel();

        /** Pod (else namespace) label holding the project. */
        @WithDefault("gpumeter.io/project")
        String projectLabel();
    }

    interface Normalization {
        /** Version printed on every report; change it whenever any rule below changes. */
        @WithDefault("v1")
        String version();

        /** vGPU rule: max (min(1, max(cores, memory share))), cores, memory or weighted. */
        @WithDefault("max")
        String vgpuRule();

        /** Weight of the core share under the weighted rule; the memory share gets the rest. */
        @WithDefault("0.5")
        BigDecimal vgpuCoreWeight();

        /** Compute slices of a MIG-capable card when its model is not in the table. */
        @WithDefault("7")
        int migDefaultSlices();

        /** Compute slices per card model, e.g. "NVIDIA A30"=4. */
        Map<String, Integer> migSlices();

        /** Card memory to assume when no inventory source names it yet. */
        Optional<Long> defaultCardMemoryMib();
    }

    interface Hami {
        /** The number of vGPUs a pod asks for. */
        @WithDefault("nvidia.com/gpu")
        String countResource();

        /** Memory per vGPU in MiB. */
        @WithDefault("nvidia.com/gpumem")
        String memoryResource();

        /** Memory per vGPU as a percentage of the card's. */
        @WithDefault("nvidia.com/gpumem-percentage")
        String memoryPercentageResource();

        /** Cores per vGPU as a percentage. */
        @WithDefault("nvidia.com/gpucores")
        String coresResource();

        /** The cores HAMi reserves for a vGPU whose pod names none (HAMi's defaultCores). */
        @WithDefault("0")
        int defaultCores();
    }
}
